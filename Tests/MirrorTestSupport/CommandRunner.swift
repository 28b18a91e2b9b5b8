#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a program to completion and captures what it printed, for end-to-end tests of the
/// built `mtls-mirror` binary and for driving tools such as `curl` and `openssl`.
///
/// Standard output and standard error are drained on their own threads while the program runs,
/// so a chatty program cannot fill a pipe and deadlock. A program that outlives `timeout` is
/// sent `SIGTERM`, then `SIGKILL` (with its descendants), and its result says
/// ``Result/timedOut``. Children start with an empty signal mask, so they react to signals
/// as they would from a shell; `SIGPIPE` stays ignored, as in the test process.
///
/// ```swift
/// let mirror = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))
/// let result = mirror.run(["--help"])
/// #expect(result.exitCode == 0)
/// ```
public struct CommandRunner: Sendable {
    /// What a finished (or killed) program left behind.
    public struct Result: Sendable, Equatable, CustomStringConvertible {
        /// The exit status, or the signal number when the program was killed by a signal;
        /// 127 when the program could not be launched at all.
        public var exitCode: Int32
        /// Standard output, decoded as UTF-8 (invalid bytes replaced).
        public var stdout: String
        /// Standard error, decoded as UTF-8 (invalid bytes replaced).
        public var stderr: String
        /// Whether the program was killed because it ran past its timeout.
        public var timedOut: Bool
        /// Whether the program ended by a signal instead of `exit`.
        public var killedBySignal: Bool

        /// Creates a result; tests rarely need this except to build expectations.
        public init(
            exitCode: Int32, stdout: String, stderr: String, timedOut: Bool,
            killedBySignal: Bool = false
        ) {
            self.exitCode = exitCode
            self.stdout = stdout
            self.stderr = stderr
            self.timedOut = timedOut
            self.killedBySignal = killedBySignal
        }

        /// True when the program exited normally with status 0 in time.
        public var succeeded: Bool { exitCode == 0 && !timedOut && !killedBySignal }

        /// A summary for test failure messages: status plus both streams.
        public var description: String {
            let how = timedOut ? "timed out" : killedBySignal ? "killed by signal \(exitCode)" : "exit \(exitCode)"
            return "[\(how)]\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
        }
    }

    /// The program to run.
    public var executable: URL
    /// The working directory for the program; the test process's own when `nil`.
    public var workingDirectory: URL?
    /// Whether the program starts from this process's environment (plus the `environment`
    /// passed to ``run(_:environment:stdin:timeout:)``) or from that dictionary alone.
    public var inheritsEnvironment: Bool

    /// Creates a runner for one program.
    ///
    /// - Parameters:
    ///   - executable: The program's file URL.
    ///   - workingDirectory: Where the program runs; `nil` keeps the current directory.
    ///   - inheritsEnvironment: Whether to pass this process's environment through.
    public init(executable: URL, workingDirectory: URL? = nil, inheritsEnvironment: Bool = true) {
        self.executable = executable
        self.workingDirectory = workingDirectory
        self.inheritsEnvironment = inheritsEnvironment
    }

    /// Runs the program with `args` and waits for it, at most `timeout` seconds.
    ///
    /// This blocks the calling thread; from `async` code that must not hold a cooperative
    /// thread for long, use ``runDetached(_:environment:stdin:timeout:)``.
    ///
    /// - Parameters:
    ///   - args: The arguments, without the program name.
    ///   - environment: Variables to set (over the inherited ones, see ``inheritsEnvironment``).
    ///   - stdin: Bytes to feed to standard input, which is then closed; `nil` gives an empty
    ///     standard input.
    ///   - timeout: Seconds before the program is killed.
    public func run(
        _ args: [String], environment: [String: String] = [:], stdin: Data? = nil,
        timeout: TimeInterval = 60
    ) -> Result {
        Self.ignoreSIGPIPE
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        var fullEnvironment = inheritsEnvironment ? ProcessInfo.processInfo.environment : [:]
        fullEnvironment.merge(environment) { _, new in new }
        process.environment = fullEnvironment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }

        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = stdin.map { _ in Pipe() }
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe ?? FileHandle.nullDevice

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try ProcessTree.launch(process)
        } catch {
            return Result(
                exitCode: 127, stdout: "",
                stderr: "CommandRunner: could not launch \(executable.path): \(error)", timedOut: false)
        }

        let drained = DispatchGroup()
        let outData = Self.drain(outPipe.fileHandleForReading, group: drained)
        let errData = Self.drain(errPipe.fileHandleForReading, group: drained)
        if let inPipe, let stdin {
            let writer = inPipe.fileHandleForWriting
            Thread {
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }.start()
        }

        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            let pid = process.processIdentifier
            ProcessTree.signalTree(pid, SIGTERM)
            if exited.wait(timeout: .now() + 3) == .timedOut {
                ProcessTree.signalTree(pid, SIGKILL)
                exited.wait()
            }
        }
        // A grandchild that inherited the pipes could keep them open; do not wait for ever.
        _ = drained.wait(timeout: .now() + (timedOut ? 2 : 10))

        return Result(
            exitCode: process.terminationStatus,
            stdout: String(decoding: outData.snapshot, as: UTF8.self),
            stderr: String(decoding: errData.snapshot, as: UTF8.self),
            timedOut: timedOut,
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }

    /// Like ``run(_:environment:stdin:timeout:)``, but waits on a dedicated thread so the
    /// calling task does not block one of Swift's few cooperative threads.
    ///
    /// - Parameters:
    ///   - args: The arguments, without the program name.
    ///   - environment: Variables to set (over the inherited ones).
    ///   - stdin: Bytes for standard input, or `nil` for an empty one.
    ///   - timeout: Seconds before the program is killed.
    public func runDetached(
        _ args: [String], environment: [String: String] = [:], stdin: Data? = nil,
        timeout: TimeInterval = 60
    ) async -> Result {
        await withCheckedContinuation { continuation in
            let runner = self
            Thread {
                continuation.resume(
                    returning: runner.run(args, environment: environment, stdin: stdin, timeout: timeout))
            }.start()
        }
    }

    /// Reads `handle` to its end on a new thread, collecting the bytes in the returned box.
    private static func drain(_ handle: FileHandle, group: DispatchGroup) -> LockedBox<Data> {
        let box = LockedBox(Data())
        group.enter()
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                box.withLock { $0.append(chunk) }
            }
            group.leave()
        }.start()
        return box
    }

    /// Writing to a program that already exited must fail with EPIPE, not kill the tests.
    private static let ignoreSIGPIPE: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}
