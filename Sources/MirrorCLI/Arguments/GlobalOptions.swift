import MirrorCore

/// The options every command takes, wherever they stand on the line (`runCommandLine` takes
/// them out before a command's own options are parsed), as a table for shell completion.
enum GlobalOptions {
    /// `--log-format`, `--quiet` and `--debug`: valid before and after the command.
    static let logging: [OptionSpec] = [
        OptionSpec("log-format", value: "FORMAT", values: .choices(Logger.Format.allCases.map(\.rawValue)),
                   help: "Log lines as text (default) or one JSON object per line."),
        OptionSpec("quiet", short: "q", help: "Log warnings and errors only."),
        OptionSpec("debug", help: "Log debug details."),
    ]

    /// `--help` and `--version`, valid only in place of a command, then the logging options.
    static let all: [OptionSpec] = [
        OptionSpec("help", short: "h", help: "Show the help of the tool or of a command."),
        OptionSpec("version", short: "V", help: "Print the version."),
    ] + logging
}
