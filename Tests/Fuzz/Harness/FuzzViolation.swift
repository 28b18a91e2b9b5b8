/// A broken invariant found by a fuzz harness: which target, which promise, and the evidence.
///
/// Harnesses are pure functions that return a violation (or nil) so that tests can show that
/// each checker really detects a bad output; only the libFuzzer entry points turn a violation
/// into a crash, through ``FuzzInvariant/fail(_:)``.
public struct FuzzViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The fuzz target's name (`url-path`, `html-rewrite`, …).
    public var target: String
    /// The promise that was broken, in one line.
    public var invariant: String
    /// What was observed: inputs, outputs and positions, already escaped for printing.
    public var evidence: String

    /// Creates a violation.
    /// - Parameters:
    ///   - target: the fuzz target's name.
    ///   - invariant: the broken promise.
    ///   - evidence: what was observed.
    public init(target: String, invariant: String, evidence: String) {
        self.target = target
        self.invariant = invariant
        self.evidence = evidence
    }

    public var description: String { "[\(target)] invariant broken: \(invariant)\n  evidence: \(evidence)" }
}

/// The single place where a fuzz run stops on a broken invariant.
public enum FuzzInvariant {
    /// Stops the process with the violation's text, so that libFuzzer saves the input.
    /// - Parameter violation: what broke.
    public static func fail(_ violation: FuzzViolation) -> Never {
        fatalError(violation.description)
    }
}

/// Printable evidence for byte strings: ASCII as is, everything else `\xNN`, cut at `limit`.
enum Evidence {
    static func bytes(_ bytes: some Collection<UInt8>, limit: Int = 300) -> String {
        var out = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case 0x20...0x7E where byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\""):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "\\x" + String(byte, radix: 16).leftPaddedHex()
            }
        }
        out += "\""
        if bytes.count > limit { out += "…(\(bytes.count) bytes)" }
        return out
    }

    static func text(_ text: String, limit: Int = 300) -> String { bytes(Array(text.utf8), limit: limit) }
}

extension String {
    func leftPaddedHex() -> String { count >= 2 ? self : "0" + self }
}
