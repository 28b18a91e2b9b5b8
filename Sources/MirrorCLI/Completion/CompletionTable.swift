/// What the shell completion scripts know, taken from the command tables that `--help` and
/// the man page are made from: the commands with their summaries, each command's options with
/// the kind of their values, what the command's operands are, and the global options.
///
/// Options added to a command's ``CommandSpec`` appear in the scripts by themselves; a closed
/// set of values is declared on the option (``OptionSpec/values``).
struct CompletionTable: Sendable {
    /// One command as the scripts see it.
    struct Entry: Sendable {
        let name: String
        let summary: String
        let options: [OptionSpec]
        let operands: OptionValues
    }

    /// The program name the scripts complete for.
    let program: String
    /// Options valid before the command (`--help`, `--version` and the logging options).
    let globalOptions: [OptionSpec]
    /// Options valid after the command too (the logging options).
    let everywhereOptions: [OptionSpec]
    let commands: [Entry]

    /// The tool's own table: every command of `mtls-mirror --help`, in its order.
    static var tool: CompletionTable {
        CompletionTable(
            program: "mtls-mirror", globalOptions: GlobalOptions.all, everywhereOptions: GlobalOptions.logging,
            commands: Command.allCases.map { command in
                let spec = command.spec
                return Entry(name: spec.name, summary: spec.summary, options: spec.options, operands: spec.operands)
            })
    }

    /// Every spelling of an option: `["-o", "--output"]`.
    static func spellings(_ option: OptionSpec) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }

    /// The option's help cut to its first sentence, for the one-line descriptions of zsh and
    /// fish (the man page and `--help` keep the whole text).
    static func shortHelp(_ text: String) -> String {
        var sentence = text
        if let stop = text.range(of: ". ") { sentence = String(text[..<stop.lowerBound]) }
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }
}
