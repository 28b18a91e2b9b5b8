import Foundation
import MirrorCore
import MirrorCrawler
import MirrorDocument
import MirrorHTTP

/// The commands, in the order `--help` lists them.
enum Command: String, CaseIterable {
    case demo, mirror, refresh, serve, snapshots, rollback, archive, schedule, fetch, inspect, `init`, man, completions

    var spec: CommandSpec {
        switch self {
        case .demo: DemoCommand.spec
        case .mirror: MirrorCommand.spec
        case .`init`: InitCommand.spec
        case .man: ManCommand.spec
        case .refresh: RefreshCommand.spec
        case .serve: ServeCommand.spec
        case .snapshots: SnapshotsCommand.spec
        case .rollback: RollbackCommand.spec
        case .archive: ArchiveCommand.spec
        case .schedule: ScheduleCommand.spec
        case .fetch: FetchCommand.spec
        case .inspect: InspectCommand.spec
        case .completions: CompletionsCommand.spec
        }
    }
}

/// The top-level help text.
func mainHelpText() -> String {
    var lines = [
        "mtls-mirror \(MirrorVersion.string): mirror, serve and refresh websites that require a TLS client certificate.",
        "",
        "Usage: mtls-mirror COMMAND [options]",
        "",
        "Commands:",
    ]
    for command in Command.allCases {
        lines.append("  " + command.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + command.spec.summary)
    }
    lines += [
        "",
        "Global options: --help, --version, --log-format text|json, --quiet, --debug",
        "Run `mtls-mirror COMMAND --help` for a command's options and examples.",
        "",
        "Exit codes:",
    ]
    for code in ExitCode.allCases {
        lines.append("  \(code.rawValue)  \(code.meaning)")
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Runs the command line and returns the process exit code. Never calls `exit` itself.
public func runCommandLine(_ rawArguments: [String]) async -> Int32 {
    var arguments = rawArguments
    var format = Logger.Format.text
    var level = Logger.Level.info
    // Global options may stand anywhere; take them out first.
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--quiet", "-q":
            level = .warning
            arguments.remove(at: index)
        case "--debug":
            level = .debug
            arguments.remove(at: index)
        case "--log-format":
            guard index + 1 < arguments.count, let parsed = Logger.Format(rawValue: arguments[index + 1]) else {
                Terminal.write("mtls-mirror: error: --log-format needs text or json\n", to: 2)
                return ExitCode.usage.rawValue
            }
            format = parsed
            arguments.removeSubrange(index...(index + 1))
        default:
            index += 1
        }
    }
    let logger = Logger(minimumLevel: level, format: format)

    guard let first = arguments.first else {
        // No arguments: run the default job, ./config.json, when there is one.
        if FileManager.default.fileExists(atPath: "config.json") {
            return await runCommandLine(["mirror"] + rawArguments)
        }
        Terminal.write(mainHelpText(), to: 2)
        return ExitCode.usage.rawValue
    }
    switch first {
    case "--version", "-V", "version":
        Terminal.write("mtls-mirror \(MirrorVersion.string)\n", to: 1)
        return 0
    case "--help", "-h", "help":
        if arguments.count > 1, let command = Command(rawValue: arguments[1]) {
            Terminal.write(command.spec.helpText, to: 1)
        } else {
            Terminal.write(mainHelpText(), to: 1)
        }
        return 0
    default:
        break
    }
    guard let command = Command(rawValue: first) else {
        report(UsageError("unknown command \"\(first)\"", hint: "run `mtls-mirror --help` for the list"), logger: logger)
        return ExitCode.usage.rawValue
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        Terminal.write(command.spec.helpText, to: 1)
        return 0
    }
    // Parsed once, here; a usage error is reported below.
    let parsedArguments = Result { () throws(UsageError) in try ArgumentParser.parse(rest, spec: command.spec) }
    // libcurl, then libxml2 (once the run's first request has left), open on a thread of their
    // own while the command starts; the first transfer engine's thread is made before, while no
    // `dlopen` holds glibc's lock (issue #27).
    if command == .mirror || command == .refresh {
        // The client identity of `mirror URL --cert FILE` is read on a thread of its own from
        // here on; the command takes it when it sets up its TLS (IdentityPrefetch).
        if command == .mirror, case .success(let parsed) = parsedArguments, !parsed.positionals.isEmpty,
           let request = (try? TLSOptions(parsed))?.prefetchRequest {
            IdentityPrefetch.shared.start(request)
        }
        EngineThreadReserve.shared.fill()
        CurlGlobal.preload(then: LibXML2.openWhenAllowed)
    }
    do {
        let parsed = try parsedArguments.get()
        let code: ExitCode
        switch command {
        case .demo: code = try await DemoCommand(arguments: parsed, logger: logger).run()
        case .`init`: code = try await InitCommand(arguments: parsed, logger: logger).run()
        case .man: code = try await ManCommand(arguments: parsed, logger: logger).run()
        case .mirror:
            code = try await Interruption.run { control in
                try await MirrorCommand(arguments: parsed, logger: logger, control: control).run()
            }
        case .refresh:
            code = try await Interruption.run { control in
                try await RefreshCommand(arguments: parsed, logger: logger, control: control).run()
            }
        case .serve: code = try await ServeCommand(arguments: parsed, logger: logger).run()
        case .snapshots: code = try await SnapshotsCommand(arguments: parsed, logger: logger).run()
        case .rollback: code = try await RollbackCommand(arguments: parsed, logger: logger).run()
        case .archive: code = try await ArchiveCommand(arguments: parsed, logger: logger).run()
        case .schedule: code = try await ScheduleCommand(arguments: parsed, logger: logger).run()
        case .fetch: code = try await FetchCommand(arguments: parsed, logger: logger).run()
        case .inspect: code = try await InspectCommand(arguments: parsed, logger: logger).run()
        case .completions: code = try await CompletionsCommand(arguments: parsed, logger: logger).run()
        }
        return code.rawValue
    } catch CrawlError.cancelled {
        logger.warning(CrawlError.cancelled.summary)
        return ExitCode.interrupted.rawValue
    } catch let error as any DiagnosableError {
        report(error, logger: logger)
        return ExitCode(error.category).rawValue
    } catch {
        logger.error("unexpected failure: \(error)")
        return ExitCode.internalError.rawValue
    }
}

/// Prints an error as one line naming the cause, and a second line with what to try.
func report(_ error: any DiagnosableError, logger: Logger) {
    logger.error(error.summary, hint: CommandLineHint.hint(for: error), category: error.category.rawValue)
}
