import MirrorDocument

/// The rewriter's promise, checked independently of ``SpliceRewriter``: edits lie inside the
/// document, in order and without overlap, and the output equals the input byte for byte
/// outside the edited spans, with each edit's replacement in its place.
public enum SpliceCheck {
    /// Checks a rewrite.
    /// - Parameters:
    ///   - target: the fuzz target's name, for the report.
    ///   - source: the document the edits index.
    ///   - edits: the plan, as given to ``SpliceRewriter/apply(_:to:)``.
    ///   - output: what the rewriter produced.
    /// - Returns: the first broken promise, or nil.
    public static func check(target: String, source: [UInt8], edits: [Rewrite], output: [UInt8]) -> FuzzViolation? {
        func violation(_ invariant: String, _ evidence: String) -> FuzzViolation {
            FuzzViolation(target: target, invariant: invariant, evidence: evidence)
        }
        var previous: Range<Int>?
        for edit in edits {
            guard edit.span.lowerBound >= 0, edit.span.upperBound <= source.count else {
                return violation("edit spans lie inside the document", "span \(edit.span) in \(source.count) bytes")
            }
            if let previous, edit.span.lowerBound < previous.upperBound
                || (edit.span.lowerBound == previous.lowerBound && !previous.isEmpty) {
                return violation("edits are in order and do not overlap", "\(previous) then \(edit.span)")
            }
            previous = edit.span
        }
        var cursor = 0
        var written = 0
        func matches(_ expected: ArraySlice<UInt8>) -> Bool {
            guard written + expected.count <= output.count else { return false }
            let ok = output[written..<(written + expected.count)].elementsEqual(expected)
            written += expected.count
            return ok
        }
        for edit in edits {
            let gap = source[cursor..<edit.span.lowerBound]
            guard matches(gap) else {
                return violation(
                    "output equals input outside the rewritten spans",
                    "bytes \(cursor)..<\(edit.span.lowerBound) of the input differ in the output near offset \(written - gap.count)")
            }
            guard matches(edit.replacement[...]) else {
                return violation("each rewritten span holds its replacement", "span \(edit.span), replacement \(Evidence.bytes(edit.replacement))")
            }
            cursor = edit.span.upperBound
        }
        guard matches(source[cursor...]), written == output.count else {
            return violation("output equals input outside the rewritten spans",
                             "tail from input offset \(cursor) differs (output \(output.count) bytes, expected \(written))")
        }
        return nil
    }

    /// Checks that spans lie inside a buffer of `count` bytes, in order and not overlapping.
    /// - Parameters:
    ///   - target: the fuzz target's name.
    ///   - what: what the spans are, for the report.
    ///   - spans: the spans in reported order.
    ///   - count: the buffer's length.
    /// - Returns: the first broken promise, or nil.
    public static func checkOrderedSpans(target: String, what: String, spans: [Range<Int>], count: Int) -> FuzzViolation? {
        var previousEnd = 0
        for (index, span) in spans.enumerated() {
            guard span.lowerBound >= 0, span.upperBound <= count else {
                return FuzzViolation(target: target, invariant: "\(what) lie inside the input", evidence: "#\(index) \(span) in \(count) bytes")
            }
            guard span.lowerBound >= previousEnd else {
                return FuzzViolation(target: target, invariant: "\(what) are in order and do not overlap",
                                     evidence: "#\(index) \(span) starts before \(previousEnd)")
            }
            previousEnd = span.upperBound
        }
        return nil
    }
}
