/// Parsed command-line arguments, keyed by canonical option name.
public struct ParsedArguments: Sendable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A command-line usage error, with the offending argument.
public struct UsageError: DiagnosableErrorBase {
    public let message: String
    public let hintText: String
    public init(_ message: String, hint: String = "") {
        self.message = message
        self.hintText = hint
    }
}

import MirrorCore

/// Shared shape for errors raised by the CLI itself.
public protocol DiagnosableErrorBase: DiagnosableError {
    var message: String { get }
    var hintText: String { get }
}

extension DiagnosableErrorBase {
    public var category: ErrorCategory { .usage }
    public var summary: String { message }
    public var hint: String { hintText }
}

/// Splits arguments by a ``CommandSpec``: `--name value`, `--name=value`, `-o value`, `-ovalue`,
/// grouped short flags (`-ik`), and `--` to end options.
public enum ArgumentParser {
    /// - Throws: ``UsageError`` naming an unknown option, a missing value, or a repeated
    ///   non-repeatable option.
    public static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        // Plain loops, the first spelling winning: building these with `Dictionary(_:uniquingKeysWith:)`
        // over mapped sequences instantiated their generic types through the runtime's
        // conformance tables on every run's start (issue #27).
        var byName: [String: OptionSpec] = [:]
        var byShort: [Character: OptionSpec] = [:]
        for option in spec.options {
            for name in [option.name] + option.aliases where byName[name] == nil { byName[name] = option }
            if let short = option.short, byShort[short] == nil { byShort[short] = option }
        }

        func store(_ option: OptionSpec, _ value: String?) throws(UsageError) {
            if let value {
                if !option.repeatable, result.values[option.name] != nil {
                    throw UsageError("--\(option.name) was given twice", hint: "give it once")
                }
                result.values[option.name, default: []].append(value)
            } else {
                result.flags.insert(option.name)
            }
        }
        func takeValue(_ option: OptionSpec, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else {
                throw UsageError("--\(option.name) needs a value (\(option.valueName ?? "VALUE"))",
                                 hint: "see `mtls-mirror \(spec.name) --help`")
            }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result.positionals += arguments[(index + 1)...]
                break
            }
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name: String
                var inline: String?
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inline = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
                guard let option = byName[name] else {
                    throw UsageError("unknown option --\(name) for `\(spec.name)`", hint: "see `mtls-mirror \(spec.name) --help`")
                }
                if option.isFlag {
                    if inline != nil { throw UsageError("--\(name) takes no value") }
                    try store(option, nil)
                } else {
                    try store(option, try takeValue(option, inline: inline))
                }
            } else if argument.hasPrefix("-"), argument.count > 1 {
                var chars = Array(argument.dropFirst())
                while !chars.isEmpty {
                    let letter = chars.removeFirst()
                    guard let option = byShort[letter] else {
                        throw UsageError("unknown option -\(letter) for `\(spec.name)`", hint: "see `mtls-mirror \(spec.name) --help`")
                    }
                    if option.isFlag {
                        try store(option, nil)
                    } else {
                        let inline = chars.isEmpty ? nil : String(chars)
                        chars.removeAll()
                        try store(option, try takeValue(option, inline: inline))
                    }
                }
            } else {
                result.positionals.append(argument)
            }
            index += 1
        }
        return result
    }
}
