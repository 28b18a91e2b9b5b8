/// One command-line option: its names, whether it takes a value, and its help text.
///
/// The same table drives parsing, `--help` and the man page, so they cannot disagree.
public struct OptionSpec: Sendable {
    /// Canonical long name without dashes, e.g. "cert". Parsed values are keyed by it.
    public let name: String
    /// A one-letter alias without the dash, e.g. "o".
    public let short: Character?
    /// The value's placeholder ("FILE"), or nil for a flag.
    public let valueName: String?
    public let help: String
    public let repeatable: Bool
    /// What the value can be, for shell completion: declared for closed sets (`values:
    /// .choices(["P12", "PEM"])`) and site names, otherwise implied by the placeholder.
    public let values: OptionValues
    /// Old spellings still accepted, never shown (`--help`, the man page and completions list
    /// ``name`` only): renamed options keep working in scripts.
    public let aliases: [String]

    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
                values: OptionValues? = nil, aliases: [String] = [], help: String) {
        self.name = name
        self.aliases = aliases
        self.short = short
        self.valueName = value
        self.help = help
        self.repeatable = repeatable
        self.values = values ?? OptionValues.implied(by: value)
    }

    public var isFlag: Bool { valueName == nil }

    /// "-o, --output FILE"
    public var synopsis: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

/// A command: its name, usage line, options and examples.
public struct CommandSpec: Sendable {
    public let name: String
    public let summary: String
    public let usage: String
    public let discussion: String
    public let options: [OptionSpec]
    public let examples: [String]
    /// What the positional arguments are, for shell completion (site names for `refresh`).
    public let operands: OptionValues

    public init(name: String, summary: String, usage: String, discussion: String = "", options: [OptionSpec], examples: [String],
                operands: OptionValues = .text) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.options = options + [OptionSpec("help", short: "h", help: "Show this help.")]
        self.examples = examples
        self.operands = operands
    }

    /// The `--help` text.
    public var helpText: String {
        var lines = ["mtls-mirror \(name): \(summary)", "", "Usage: \(usage)"]
        if !discussion.isEmpty { lines += ["", discussion] }
        lines += ["", "Options:"]
        let width = min(34, (options.map(\.synopsis.count).max() ?? 0) + 2)
        for option in options {
            let synopsis = option.synopsis
            let pad = synopsis.count < width ? String(repeating: " ", count: width - synopsis.count) : "\n" + String(repeating: " ", count: width + 2)
            lines.append("  " + synopsis + pad + option.help)
        }
        if !examples.isEmpty {
            lines += ["", "Examples:"] + examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
