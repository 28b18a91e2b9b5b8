import Foundation
import MirrorCore
import MirrorScheduler
#if canImport(Glibc)
import Glibc
#endif

/// `mtls-mirror schedule`: refresh the config's sites on their `refresh.every` in the
/// foreground, or print systemd units / crontab lines that do it without a resident process.
struct ScheduleCommand {
    static let spec = CommandSpec(
        name: "schedule",
        summary: "refresh sites on their schedule in the foreground, or print systemd/cron units",
        usage: "mtls-mirror schedule [--config FILE] [--site NAME]... [--print-systemd [--template] | --print-cron | --print-kubernetes] [--once]",
        discussion: """
            Without --print-*: stays in the foreground and refreshes each site every refresh.every (plus a \
            random refresh.jitter), one site at a time, each run a child `mtls-mirror refresh` process; \
            a failed run is logged and retried at the next slot. The first run of a site is due one \
            interval after its last run in DIR/SITE/history.jsonl (at once when there is none). SIGINT or \
            SIGTERM stops new runs, waits for the running one, then exits (0 for SIGTERM, 130 for SIGINT). \
            --once refreshes each selected site once and exits (10 when any run did not fully succeed). \
            --print-systemd prints a hardened oneshot service and a timer per site; --print-cron prints \
            crontab lines (only for intervals that divide an hour or a day); --print-kubernetes prints a \
            CronJob per site (concurrencyPolicy Forbid; an interval cron cannot repeat at runs at the next \
            shorter one it can), a ConfigMap, a ReadWriteMany volume and serve's Deployment and Service, \
            referring to Secrets that you create from the files. Nothing is installed.
            """,
        options: [
            OptionSpec("config", short: "c", value: "FILE", help: "The config (default ./config.json)."),
            OptionSpec("site", value: "NAME", repeatable: true, values: .site, help: "Only these sites (default: every site with refresh.every)."),
            OptionSpec("output", short: "o", value: "DIR", help: "Override the config's output root."),
            OptionSpec("once", help: "Refresh each selected site once, then exit."),
            OptionSpec("print-systemd", help: "Print a .service and a .timer per site instead of running."),
            OptionSpec("print-cron", help: "Print crontab lines instead of running."),
            OptionSpec("user", value: "NAME", help: "With --print-systemd: the User= to run as (default: you)."),
            OptionSpec("executable", value: "PATH", help: "With --print-*: the mtls-mirror path to run (default: this binary)."),
            OptionSpec("credential", value: "FILE", help: "With --print-systemd: pass the password file FILE with LoadCredential=."),
            OptionSpec("environment-file", value: "FILE", help: "With --print-systemd: read NAME=value lines from FILE (mode 0600)."),
            OptionSpec("print-kubernetes", help: "Print Kubernetes manifests instead: a CronJob per site, the config as a ConfigMap, a volume, and a Deployment and Service for serve."),
            OptionSpec("image", value: "IMAGE", help: "With --print-kubernetes: the image to run (default mtls-mirror:VERSION, built from packaging/Containerfile)."),
            OptionSpec("namespace", value: "NAME", help: "With --print-kubernetes: the namespace of every object (default: none, as kubectl -n says)."),
            OptionSpec("storage-class", value: "NAME", help: "With --print-kubernetes: the volume's StorageClass, one that offers ReadWriteMany (default: the cluster's)."),
            OptionSpec("volume-size", value: "SIZE", help: "With --print-kubernetes: the volume's size (default 10Gi)."),
            OptionSpec("template", help: "With --print-systemd: the packaged units instead (mtls-mirror-refresh@.service and .timer, mtls-mirror-serve.service), and with --config a timer drop-in per site."),
        ],
        examples: [
            "mtls-mirror schedule --config /etc/mtls-mirror/config.json",
            "mtls-mirror schedule --site intranet --once",
            "mtls-mirror schedule --config /etc/mtls-mirror/config.json --print-systemd --user mirror --credential /etc/mtls-mirror/p12.pass",
            "mtls-mirror schedule --print-cron | crontab -",
            "mtls-mirror schedule --config fleet.json --print-kubernetes --image registry.example/mtls-mirror:0.1.0 > fleet.yaml",
        ])

    let arguments: ParsedArguments
    let logger: Logger
    /// Runs one refresh; `nil` means the default child-process runner.
    let runner: RefreshRunner?
    let clock: any SchedulerClock
    let randomUnit: @Sendable () -> Double
    /// Where printed units go (standard output; tests pass a file).
    let output: Int32

    init(arguments: ParsedArguments, logger: Logger) {
        self.init(arguments: arguments, logger: logger, runner: nil)
    }

    /// For tests and for the lead's own runner: inject the refresh, the clock and the jitter.
    init(arguments: ParsedArguments, logger: Logger, runner: RefreshRunner?, clock: any SchedulerClock = SystemSchedulerClock(),
         randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }, output: Int32 = 1) {
        self.output = output
        self.arguments = arguments
        self.logger = logger
        self.runner = runner
        self.clock = clock
        self.randomUnit = randomUnit
    }

    func run() async throws -> ExitCode {
        guard arguments.positionals.isEmpty else {
            throw UsageError("schedule takes no positional arguments (got \"\(arguments.positionals[0])\")", hint: "select sites with --site NAME")
        }
        if arguments.flag("template") {
            Terminal.write(try templateText(), to: output)
            return .success
        }
        if arguments.flag("print-systemd") && arguments.flag("print-cron") {
            throw UsageError("--print-systemd and --print-cron exclude each other", hint: "give one of them")
        }
        let configRunner = ConfigRunner(arguments: arguments, logger: logger)
        let config = try configRunner.loadConfig()
        let sites = try configRunner.selectedSites(config)
        let configPath = SiteFolders.absolute(arguments.value("config") ?? "config.json")
        let outputRoot = arguments.value("output").map(SiteFolders.absolute) ?? config.output
        if arguments.flag("print-kubernetes") {
            Terminal.write(try kubernetesText(config: config, sites: sites, configPath: configPath), to: output)
            return .success
        }
        if (arguments.flag("print-systemd") || arguments.flag("print-cron")) && arguments.value("output") != nil {
            throw UsageError("--output cannot be combined with --print-systemd or --print-cron", hint: "set \"output\" in the config; the units run `refresh --config FILE`")
        }
        if arguments.flag("print-systemd") {
            Terminal.write(try systemdText(sites: sites, configPath: configPath, outputRoot: outputRoot), to: output)
            return .success
        }
        if arguments.flag("print-cron") {
            Terminal.write(try cronText(sites: sites, configPath: configPath), to: output)
            return .success
        }
        return try await foreground(sites: sites, configPath: configPath, outputRoot: outputRoot)
    }

    /// Runs the scheduler loop until a signal (or, with --once, until every site ran once).
    private func foreground(sites: [SiteConfig], configPath: String, outputRoot: String) async throws -> ExitCode {
        let once = arguments.flag("once")
        var scheduled: [(name: String, schedule: RefreshSchedule)] = []
        var lastStarts: [String: Date] = [:]
        for site in sites {
            guard let every = site.refresh.every ?? (once ? 86_400 : nil) else {
                logger.info("\(site.name): no refresh.every, not scheduled")
                continue
            }
            scheduled.append((site.name, RefreshSchedule(every: every, jitter: site.refresh.jitter)))
            if let last = RunHistory(siteDirectory: outputRoot + "/" + site.name).load(last: 1).last {
                lastStarts[site.name] = last.startedAt
            }
        }
        guard !scheduled.isEmpty else {
            throw UsageError("no site to schedule: none of the selected sites has refresh.every",
                             hint: "set sites[].refresh.every in the config (e.g. \"6h\"), or use --once")
        }
        let refresh = runner ?? RefreshRunner.childProcess(
            configPath: configPath, outputRoot: arguments.value("output").map(SiteFolders.absolute), logger: logger)
        let codes = CodeRecorder()
        let machine = SchedulerStateMachine(sites: scheduled, lastStarts: lastStarts, now: clock.now(), once: once,
                                            randomUnit: randomUnit)
        let loop = SchedulerLoop(machine: machine, clock: clock, outputRoot: outputRoot, logger: logger) { site in
            let code = await refresh.run(site)
            codes.append(code)
            return code.rawValue
        }
        logger.info("scheduling \(scheduled.map { "\($0.name) every \(UnitFiles.timeSpan($0.schedule.every))" }.joined(separator: ", "))")
        let signals = SignalForwarder { loop.stop(signal: $0) }
        defer { signals.cancel() }
        switch await loop.run() {
        case .finished:
            return codes.all.allSatisfy { $0 == .success } ? .success : .partial
        case .stopped(let signal):
            return signal == SIGINT ? .interrupted : .success
        }
    }
}

/// The exit codes of the runs, collected from the runner's tasks.
private final class CodeRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [ExitCode] = []
    func append(_ code: ExitCode) { lock.withLock { codes.append(code) } }
    var all: [ExitCode] { lock.withLock { codes } }
}
