import Foundation
import MirrorCore

/// `mtls-mirror completions bash|zsh|fish`: prints a shell completion script generated from
/// the command tables; `completions --sites` prints the config's site names, which the
/// scripts ask for when a site name is due.
struct CompletionsCommand {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completions",
        summary: "print the bash, zsh or fish completion script generated from the command tables",
        usage: "mtls-mirror completions bash|zsh|fish\n       mtls-mirror completions --sites [--config FILE]",
        discussion: """
            The script completes commands, options, option values (files, folders, the closed sets such as \
            --cert-type P12|PEM and --log-format text|json) and site names, which it asks of the tool \
            itself with `completions --sites`: the names of the config named on the line with \
            --config, or of ./config.json, one a line. The Debian package installs all three scripts.
            """,
        options: [
            OptionSpec("sites", help: "Print the site names of the config, one a line, instead of a script."),
            OptionSpec("config", short: "c", value: "FILE", help: "With --sites: the config to read (default ./config.json)."),
        ],
        examples: [
            "mtls-mirror completions bash > /usr/share/bash-completion/completions/mtls-mirror",
            "mtls-mirror completions zsh > /usr/share/zsh/vendor-completions/_mtls-mirror",
            "mtls-mirror completions fish > ~/.config/fish/completions/mtls-mirror.fish",
            "source <(mtls-mirror completions bash)",
        ],
        operands: .choices(shells))

    let arguments: ParsedArguments
    let logger: Logger
    /// Where the script or the names go (standard output; tests pass a file).
    let output: Int32

    init(arguments: ParsedArguments, logger: Logger, output: Int32 = 1) {
        self.arguments = arguments
        self.logger = logger
        self.output = output
    }

    /// - Throws: ``UsageError`` for a missing or unknown shell, or `--config` without
    ///   `--sites`; ``ConfigError`` when the config cannot be read.
    func run() async throws -> ExitCode {
        if arguments.flag("sites") {
            guard arguments.positionals.isEmpty else {
                throw UsageError("--sites takes no shell name", hint: "mtls-mirror completions --sites [--config FILE]")
            }
            let path = arguments.value("config") ?? "config.json"
            let config = try MirrorConfig.load(path: path)
            Terminal.write(config.sites.map { $0.name + "\n" }.joined(), to: output)
            return .success
        }
        if arguments.value("config") != nil {
            throw UsageError("--config applies only with --sites", hint: "mtls-mirror completions --sites --config FILE")
        }
        guard arguments.positionals.count == 1, let shell = arguments.positionals.first else {
            throw UsageError("completions needs one shell: bash, zsh or fish", hint: "mtls-mirror completions bash")
        }
        let table = CompletionTable.tool
        switch shell {
        case "bash": Terminal.write(BashCompletion.script(table), to: output)
        case "zsh": Terminal.write(ZshCompletion.script(table), to: output)
        case "fish": Terminal.write(FishCompletion.script(table), to: output)
        default:
            throw UsageError("no completion script for shell \"\(shell)\"", hint: "use one of: \(Self.shells.joined(separator: ", "))")
        }
        return .success
    }
}
