import MirrorDocument

/// Fuzz target `css`: the CSS tokenizer, `url()`/`@import`/`image-set()` extraction and the
/// CSS rewrite.
///
/// Input: a stylesheet, optionally followed by ``FuzzInput/separator`` and a replacement URL.
/// Invariants:
/// - the tokens cover the input exactly: each starts where the previous one (or a comment)
///   ended, none is empty, each token's content lies inside it, and what lies between tokens
///   is comments (``CSSTokenCoverage``, debug builds only: the tokenizer is internal);
/// - reference spans lie inside the input, in order, without overlap;
/// - the rewrite's output equals the input outside the rewritten spans (``SpliceCheck``);
/// - the rewritten stylesheet, extracted again, holds the same references, each reading back
///   exactly as the URL written (so the CSS escaping of arbitrary URLs is right).
public enum CSSHarness {
    static let name = "css"

    /// Runs the target on one input.
    /// - Parameter data: the fuzz input.
    /// - Returns: the first broken invariant, or nil.
    public static func run(_ data: [UInt8]) -> FuzzViolation? {
        let (css, trailer) = FuzzInput.splitTrailer(data)
        #if DEBUG
        if let violation = CSSTokenCoverage.check(css) { return violation }
        #endif
        let references = CSSExtractor.extract(css)
        if let violation = SpliceCheck.checkOrderedSpans(target: name, what: "reference spans", spans: references.map(\.span), count: css.count) {
            return violation
        }
        let replacement = trailer.map(ReplacementURL.sanitised).flatMap { $0.isEmpty ? nil : $0 }
        var wanted: [Int: String] = [:]
        for (index, reference) in references.enumerated() {
            wanted[reference.span.lowerBound] = replacement ?? "fz\(index)"
        }
        let plan = ReferenceRewriter.edits(for: references) { wanted[$0.span.lowerBound] }
        let output: [UInt8]
        do {
            output = try ReferenceRewriter.rewriteCSS(css) { wanted[$0.span.lowerBound] }
        } catch {
            return FuzzViolation(target: name, invariant: "the rewriter accepts the stylesheet's own references", evidence: "\(error)")
        }
        if let violation = SpliceCheck.check(target: name, source: css, edits: plan, output: output) { return violation }
        let again = CSSExtractor.extract(output)
        guard again.count == references.count else {
            return FuzzViolation(target: name, invariant: "rewriting keeps every reference",
                                 evidence: "\(references.count) before, \(again.count) after; output \(Evidence.bytes(output))")
        }
        for (before, after) in zip(references, again) {
            let url = wanted[before.span.lowerBound] ?? before.value
            guard before.kind == after.kind, after.value == url else {
                return FuzzViolation(target: name, invariant: "each rewritten reference reads back as the URL written",
                                     evidence: "wrote \(Evidence.text(url)), read \(Evidence.text(after.value)) (\(after.kind)); output \(Evidence.bytes(output))")
            }
        }
        return nil
    }
}
