import MirrorDocument

/// Fuzz target `html-rewrite`: HTML reference extraction (libxml2 plus our tag lexer), the
/// rewrite plan and the splice rewriter.
///
/// Input: an HTML document, optionally followed by ``FuzzInput/separator`` and a replacement
/// URL. Every extracted reference is replaced with a marker (`fz0`, `fz1`, …) or, when
/// given, with the replacement URL. Invariants:
/// - reference spans lie inside the document, in source order, without overlap, each inside
///   its attribute's span;
/// - the plan is accepted by the splice rewriter, and the output equals the input byte for
///   byte outside the rewritten spans (``SpliceCheck``);
/// - extracting the output again finds the same references (kind, element, attribute), each
///   reading back exactly as the URL that was written.
public enum HTMLRewriteHarness {
    static let name = "html-rewrite"

    /// Runs the target on one input.
    /// - Parameter data: the fuzz input.
    /// - Returns: the first broken invariant, or nil.
    public static func run(_ data: [UInt8]) -> FuzzViolation? {
        let (document, trailer) = FuzzInput.splitTrailer(data)
        let replacement = trailer.map { ReplacementURL.sanitised($0) }
        let extraction: HTMLExtraction
        do {
            extraction = try HTMLExtractor.extract(document)
        } catch {
            return FuzzViolation(target: name, invariant: "extraction of a small document does not fail", evidence: "\(error)")
        }
        if let violation = checkReferences(extraction.references, count: extraction.source.count) { return violation }
        let neutraliseBase = (document.first ?? 0) & 1 == 1
        var wanted: [Int: String] = [:]
        for (index, reference) in extraction.references.enumerated() {
            wanted[reference.span.lowerBound] = replacement.flatMap { $0.isEmpty ? nil : $0 } ?? "fz\(index)"
        }
        let charset: Charset = extraction.isTranscoded ? .utf8 : extraction.charset
        let plan = ReferenceRewriter.edits(
            for: extraction.references, charset: charset,
            options: .init(dropIntegrityOfRewritten: true, neutraliseBase: neutraliseBase)) { wanted[$0.span.lowerBound] }
        let output: [UInt8]
        do {
            output = try SpliceRewriter.apply(plan, to: extraction.source)
        } catch {
            return FuzzViolation(target: name, invariant: "the rewriter accepts the plan built from the document's own references",
                                 evidence: "\(error)")
        }
        if let violation = SpliceCheck.check(target: name, source: extraction.source, edits: plan, output: output) { return violation }
        guard !extraction.isTranscoded else { return nil }
        return checkReadBack(extraction, output: output, wanted: wanted, neutraliseBase: neutraliseBase)
    }

    /// Spans inside the document, in order, not overlapping, inside their attribute.
    /// - Parameters:
    ///   - references: the extracted references.
    ///   - count: the length of the buffer they index.
    /// - Returns: the first broken promise, or nil.
    public static func checkReferences(_ references: [Reference], count: Int) -> FuzzViolation? {
        if let violation = SpliceCheck.checkOrderedSpans(target: name, what: "reference spans", spans: references.map(\.span), count: count) {
            return violation
        }
        for reference in references {
            if let attribute = reference.attributeSpan,
               attribute.lowerBound > reference.span.lowerBound || attribute.upperBound < reference.span.upperBound
                || attribute.upperBound > count {
                return FuzzViolation(target: name, invariant: "a value's span lies inside its attribute's span",
                                     evidence: "value \(reference.span), attribute \(attribute)")
            }
            if let integrity = reference.integritySpan, integrity.lowerBound < 0 || integrity.upperBound > count {
                return FuzzViolation(target: name, invariant: "integrity spans lie inside the document", evidence: "\(integrity) in \(count) bytes")
            }
        }
        return nil
    }

    /// The rewritten document, extracted again, holds the same references with the new URLs.
    static func checkReadBack(_ original: HTMLExtraction, output: [UInt8], wanted: [Int: String], neutraliseBase: Bool) -> FuzzViolation? {
        guard let again = try? HTMLExtractor.extract(output) else {
            return FuzzViolation(target: name, invariant: "the rewritten document can be extracted", evidence: Evidence.bytes(output))
        }
        let expected = original.references.filter { !(neutraliseBase && $0.kind == .base && $0.attributeSpan != nil) }
        let found = again.references
        guard found.count == expected.count else {
            return FuzzViolation(target: name, invariant: "rewriting keeps every reference",
                                 evidence: "\(expected.count) references before, \(found.count) after; output \(Evidence.bytes(output))")
        }
        for (before, after) in zip(expected, found) {
            let url = wanted[before.span.lowerBound] ?? before.value
            guard before.kind == after.kind, before.element == after.element, before.attribute == after.attribute,
                  after.value == url else {
                return FuzzViolation(
                    target: name, invariant: "each rewritten reference reads back as the URL written",
                    evidence: "wrote \(Evidence.text(url)) for \(before.kind) \(before.element ?? "-") \(before.attribute ?? "-"), "
                        + "read \(Evidence.text(after.value)) as \(after.kind) \(after.element ?? "-") \(after.attribute ?? "-"); output \(Evidence.bytes(output))")
            }
        }
        return nil
    }
}

/// Replacement URLs taken from fuzz input, reduced to what a mapper could ever produce: valid
/// UTF-8 without NUL (which CSS turns into U+FFFD), at most 200 bytes.
enum ReplacementURL {
    static func sanitised(_ bytes: [UInt8]) -> String {
        String(String(decoding: bytes.prefix(200), as: UTF8.self).unicodeScalars.filter { $0 != "\0" }.map(Character.init))
    }
}
