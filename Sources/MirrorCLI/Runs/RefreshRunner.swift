import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// How `schedule` runs one site's refresh: a closure from site name to exit code.
///
/// The default, ``childProcess(executable:configPath:outputRoot:logger:)``, runs
/// `mtls-mirror refresh --config FILE SITE` as a child process of the same executable, so a
/// run that crashes, leaks or hangs on a library cannot take the scheduler down with it. Tests
/// (and an in-process runner, should one be wanted) pass their own closure.
public struct RefreshRunner: Sendable {
    /// Runs the refresh of one site and returns its exit code.
    public let run: @Sendable (_ site: String) async -> ExitCode

    /// Wraps a closure.
    /// - Parameter run: runs one site's refresh.
    public init(_ run: @escaping @Sendable (_ site: String) async -> ExitCode) {
        self.run = run
    }

    /// The path of the running executable (`/proc/self/exe` resolved), or `argv[0]`.
    public static var currentExecutable: String {
        if let resolved = realpath("/proc/self/exe", nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return SiteFolders.absolute(CommandLine.arguments.first ?? "mtls-mirror")
    }

    /// A runner that starts `EXECUTABLE [global flags] refresh --config CONFIG [-o OUTPUT] SITE`
    /// per run and waits for it.
    ///
    /// The child (spawned by ``ChildProcess``, with default signal dispositions) inherits standard
    /// output and error (its log lines go where ours go) and gets `/dev/null` as input, so a config that asks for a password on the terminal fails at once
    /// instead of hanging. A child killed by a signal counts as interrupted (SIGINT/SIGTERM) or an
    /// internal error (anything else, e.g. a crash); an unknown exit code as an internal error.
    /// - Parameters:
    ///   - executable: the `mtls-mirror` binary (default: this one).
    ///   - configPath: the config file.
    ///   - outputRoot: passed as `-o` when given (an override of the config's output).
    ///   - logger: its level and format are passed on (`--quiet`, `--debug`, `--log-format json`).
    public static func childProcess(executable: String = currentExecutable, configPath: String, outputRoot: String?,
                                    logger: Logger) -> RefreshRunner {
        var global: [String] = []
        if logger.format == .json { global += ["--log-format", "json"] }
        if logger.minimumLevel >= .warning { global.append("--quiet") }
        if logger.minimumLevel == .debug { global.append("--debug") }
        let prefix = global
        return RefreshRunner { site in
            var arguments = prefix + ["refresh", "--config", configPath]
            if let outputRoot { arguments += ["-o", outputRoot] }
            arguments.append(site)
            let termination = await ChildProcess.run(executable: executable, arguments: arguments)
            if case .couldNotStart(let code) = termination {
                logger.error("\(site): cannot start \(executable): \(String(cString: strerror(code)))")
            }
            return exitCode(of: termination)
        }
    }

    /// Maps a finished child to an exit code: its own code when it is one of ours, interrupted for
    /// SIGINT/SIGTERM, an internal error for anything else (a crash, an unknown code, no start).
    static func exitCode(of termination: ChildProcess.Termination) -> ExitCode {
        switch termination {
        case .exited(let status): return ExitCode(rawValue: status) ?? .internalError
        case .signalled(let signal): return signal == SIGINT || signal == SIGTERM ? .interrupted : .internalError
        case .couldNotStart: return .internalError
        }
    }
}
