#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Starting and killing child processes cleanly from inside a test process.
enum ProcessTree {
    /// Starts `process` from a fresh thread whose signal mask is empty.
    ///
    /// `posix_spawn` (under `Process.run()`) hands the calling thread's signal mask to the
    /// child. Threads of the Swift runtime and Dispatch block most signals, so a child started
    /// from them would ignore `SIGTERM` and `SIGINT` for its whole life.
    ///
    /// - Throws: Whatever `Process.run()` throws.
    static func launch(_ process: Process) throws {
        let failure = LockedBox<(any Error)?>(nil)
        let launched = DispatchSemaphore(value: 0)
        let thread = Thread {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            do {
                try process.run()
            } catch {
                failure.withLock { $0 = error }
            }
            launched.signal()
        }
        thread.start()
        launched.wait()
        if let error = failure.snapshot { throw error }
    }

    /// The direct children of `pid`, read from `/proc` (empty where there is no `/proc`).
    static func children(of pid: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return []
        }
        return entries.compactMap { entry -> pid_t? in
            guard let candidate = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // The fields after "(comm)" are: state, ppid, ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == pid else { return nil }
            return candidate
        }
    }

    /// Every descendant of `pid`, children before grandchildren.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        var frontier = [pid]
        while let next = frontier.popLast(), found.count < 4096 {
            let children = self.children(of: next)
            found += children
            frontier += children
        }
        return found
    }

    /// Waits until `process` has exited or `timeout` seconds have passed; true when it exited.
    static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Asks a server to stop with `signal` and waits `timeout` seconds for it; then sends
    /// `SIGKILL` to it and its descendants and waits up to 5 seconds more.
    static func stop(_ process: Process, signal: Int32, timeout: TimeInterval) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        if !waitForExit(process, timeout: timeout) {
            signalTree(process.processIdentifier, SIGKILL)
            _ = waitForExit(process, timeout: 5)
        }
    }

    /// Sends `signal` to `pid` and to every descendant, found before any of them is signalled
    /// (an orphaned descendant could otherwise keep pipes or ports open).
    static func signalTree(_ pid: pid_t, _ signal: Int32) {
        let tree = descendants(of: pid)
        kill(pid, signal)
        for descendant in tree { kill(descendant, signal) }
    }
}
