#if DEBUG
@testable import MirrorDocument

/// The tokenizer's coverage promise, checked on the internal ``CSSTokenizer`` (reachable with
/// `@testable import`, hence debug builds only).
public enum CSSTokenCoverage {
    /// Tokenizes `css` and checks that tokens and comments cover it exactly.
    /// - Parameter css: the stylesheet.
    /// - Returns: the first broken promise, or nil.
    public static func check(_ css: [UInt8]) -> FuzzViolation? {
        css.withUnsafeBufferPointer { buffer in
            var tokenizer = CSSTokenizer(buffer, range: 0..<buffer.count)
            var ranges: [(Range<Int>, Range<Int>)] = []
            while let token = tokenizer.next() {
                ranges.append((token.range, token.content))
                if ranges.count > css.count + 1 {
                    return FuzzViolation(target: CSSHarness.name, invariant: "the tokenizer ends (no more tokens than bytes)",
                                         evidence: "\(ranges.count) tokens for \(css.count) bytes")
                }
            }
            return check(css, tokens: ranges)
        }
    }

    /// Checks given token ranges (and content ranges) against `css`.
    /// - Parameters:
    ///   - css: the stylesheet.
    ///   - tokens: each token's range and content range, in order.
    /// - Returns: the first broken promise, or nil.
    public static func check(_ css: [UInt8], tokens: [(range: Range<Int>, content: Range<Int>)]) -> FuzzViolation? {
        func violation(_ invariant: String, _ evidence: String) -> FuzzViolation {
            FuzzViolation(target: CSSHarness.name, invariant: invariant, evidence: evidence + " in " + Evidence.bytes(css))
        }
        var cursor = 0
        for (index, token) in tokens.enumerated() {
            guard !token.range.isEmpty else { return violation("no token is empty", "token #\(index) at \(token.range)") }
            guard token.range.lowerBound >= cursor, token.range.upperBound <= css.count else {
                return violation("tokens are in order and inside the input", "token #\(index) \(token.range) after \(cursor)")
            }
            guard isComments(css[cursor..<token.range.lowerBound], atEnd: false) else {
                return violation("only comments lie between tokens", "gap \(cursor)..<\(token.range.lowerBound) before token #\(index)")
            }
            guard token.content.lowerBound >= token.range.lowerBound, token.content.upperBound <= token.range.upperBound else {
                return violation("a token's content lies inside the token", "token #\(index) \(token.range), content \(token.content)")
            }
            cursor = token.range.upperBound
        }
        guard isComments(css[cursor...], atEnd: true) else {
            return violation("tokens and comments cover the input to its end", "uncovered tail from \(cursor)")
        }
        return nil
    }

    /// Whether `bytes` is a run of complete comments, the last one possibly unterminated when
    /// the run reaches the end of the input.
    static func isComments(_ bytes: ArraySlice<UInt8>, atEnd: Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard index + 1 < bytes.endIndex, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "*") else { return false }
            var close = index + 2
            while close + 1 < bytes.endIndex, !(bytes[close] == UInt8(ascii: "*") && bytes[close + 1] == UInt8(ascii: "/")) { close += 1 }
            if close + 1 < bytes.endIndex {
                index = close + 2
            } else {
                return atEnd
            }
        }
        return true
    }
}
#endif
