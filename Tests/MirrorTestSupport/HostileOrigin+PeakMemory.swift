#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension HostileOrigin {
    /// Watches the peak resident memory of this process's children running one executable,
    /// so a test can bound what a crawl of the hostile origin costs.
    ///
    /// A thread polls `/proc` every 50 ms for direct children of the test process whose
    /// `/proc/PID/exe` is ``executable`` and keeps the largest `VmHWM` (the kernel's own
    /// high-water mark of the resident set, so a spike between two polls is still counted as
    /// long as one poll happens before the process exits). ``childrenPeakKiB()`` gives the
    /// kernel's `ru_maxrss` over every waited-for child, an upper bound that misses nothing.
    ///
    /// ```swift
    /// let watcher = HostileOrigin.PeakMemory(executable: binary)
    /// let result = runner.run(args)
    /// let peak = watcher.stop()   // KiB seen through /proc
    /// ```
    public final class PeakMemory: Sendable {
        /// The executable whose processes are watched (symbolic links resolved).
        public let executable: String
        private let peak = LockedBox<Int>(0)
        private let running = LockedBox(true)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts watching at once.
        ///
        /// - Parameters:
        ///   - executable: The program, as given to ``CommandRunner``.
        public init(executable: URL) {
            self.executable = executable.resolvingSymlinksInPath().path
            let thread = Thread { [self] in
                while running.snapshot {
                    poll()
                    usleep(50_000)
                }
                poll()
                finished.signal()
            }
            thread.start()
        }

        /// Stops the thread and returns the largest `VmHWM` seen, in KiB (0 when no matching
        /// child was seen).
        @discardableResult
        public func stop() -> Int {
            if running.withLock({ value -> Bool in
                defer { value = false }
                return value
            }) {
                finished.wait()
            }
            return peak.snapshot
        }

        /// The largest resident set of any child this process has waited for, in KiB
        /// (`getrusage(RUSAGE_CHILDREN)`'s `ru_maxrss`).
        public static func childrenPeakKiB() -> Int {
            var usage = rusage()
            // Glibc imports RUSAGE_CHILDREN as an enum case; the call takes its raw value.
            guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return 0 }
            return Int(usage.ru_maxrss)
        }

        private func poll() {
            for pid in ProcessTree.children(of: getpid()) {
                guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
                      exe == executable,
                      let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                      let kib = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
                else { continue }
                peak.withLock { $0 = max($0, kib) }
            }
        }
    }
}
