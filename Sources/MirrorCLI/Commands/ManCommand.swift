import MirrorCore

/// `mtls-mirror man`: prints the man page (roff, section 1) to standard output.
struct ManCommand {
    static let spec = CommandSpec(
        name: "man",
        summary: "print the manual page (roff) generated from the command tables",
        usage: "mtls-mirror man > mtls-mirror.1",
        discussion: "Read it with `mtls-mirror man | man -l -`, or install it under a man1 folder.",
        options: [],
        examples: ["mtls-mirror man | man -l -", "mtls-mirror man > /usr/local/share/man/man1/mtls-mirror.1"])

    let arguments: ParsedArguments
    let logger: Logger

    init(arguments: ParsedArguments, logger: Logger) {
        self.arguments = arguments
        self.logger = logger
    }

    /// Every command the page documents: the tool's command table, plus the first-run commands
    /// when the table does not list them (yet).
    static var documentedCommands: [CommandSpec] {
        var specs = Command.allCases.map(\.spec)
        for extra in [DemoCommand.spec, InitCommand.spec, ManCommand.spec] where !specs.contains(where: { $0.name == extra.name }) {
            specs.append(extra)
        }
        return specs
    }

    func run() async throws -> ExitCode {
        guard arguments.positionals.isEmpty else {
            throw UsageError("man takes no arguments", hint: "mtls-mirror man | man -l -")
        }
        Terminal.write(ManPage.render(commands: Self.documentedCommands), to: 1)
        return .success
    }
}
