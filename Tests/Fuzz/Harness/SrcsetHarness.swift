import MirrorDocument

/// Fuzz target `srcset`: the `srcset` parser and the escaping of replacement URLs written into
/// a candidate.
///
/// Input: a `srcset` value, optionally followed by ``FuzzInput/separator`` and a replacement
/// URL. Invariants:
/// - candidate URL spans lie inside the value, in order, without overlap; a URL is never
///   empty, holds no whitespace, and neither starts nor ends with a comma;
/// - serialising the candidates (`url descriptors, …`) and parsing that again gives the same
///   URLs and descriptors;
/// - splicing a replacement URL (escaped by ``URLEncoder`` for a `srcset` candidate) into
///   every candidate and parsing again gives the same number of candidates, each URL being
///   exactly the spliced text and the descriptors unchanged.
public enum SrcsetHarness {
    static let name = "srcset"

    /// Runs the target on one input.
    /// - Parameter data: the fuzz input.
    /// - Returns: the first broken invariant, or nil.
    public static func run(_ data: [UInt8]) -> FuzzViolation? {
        let (valueBytes, trailer) = FuzzInput.splitTrailer(data)
        let value = String(decoding: valueBytes, as: UTF8.self)
        let bytes = Array(value.utf8)
        let candidates = SrcsetParser.parse(value)
        if let violation = checkCandidates(candidates, in: bytes) { return violation }

        let urls = candidates.map { String(decoding: bytes[$0.span], as: UTF8.self) }
        let serialised = zip(urls, candidates).map { url, candidate in
            ([url] + candidate.descriptors).joined(separator: " ")
        }.joined(separator: ", ")
        let reparsed = SrcsetParser.parse(serialised)
        let reparsedURLs = reparsed.map { String(decoding: Array(serialised.utf8)[$0.span], as: UTF8.self) }
        guard reparsedURLs == urls, reparsed.map(\.descriptors) == candidates.map(\.descriptors) else {
            return FuzzViolation(target: name, invariant: "serialising the candidates and parsing again gives them back",
                                 evidence: "\(Evidence.text(value)) → \(Evidence.text(serialised))")
        }

        let replacement = trailer.map(ReplacementURL.sanitised).flatMap { $0.isEmpty ? nil : $0 } ?? "fz.png"
        let encoded = URLEncoder.encode(replacement, for: .srcsetCandidate(attributeQuote: .double))
        let plan = candidates.map { Rewrite(span: $0.span, replacement: encoded) }
        guard let output = try? SpliceRewriter.apply(plan, to: bytes) else {
            return FuzzViolation(target: name, invariant: "candidate spans form a valid rewrite plan", evidence: Evidence.text(value))
        }
        let rewritten = String(decoding: output, as: UTF8.self)
        let after = SrcsetParser.parse(rewritten)
        let afterURLs = after.map { Array(Array(rewritten.utf8)[$0.span]) }
        guard after.count == candidates.count, afterURLs.allSatisfy({ $0 == encoded }),
              after.map(\.descriptors) == candidates.map(\.descriptors) else {
            return FuzzViolation(target: name, invariant: "a replacement URL spliced into each candidate parses back as written",
                                 evidence: "replacement \(Evidence.text(replacement)) in \(Evidence.text(value)) → \(Evidence.bytes(output))")
        }
        return nil
    }

    /// Checks parsed candidates against the value they came from.
    /// - Parameters:
    ///   - candidates: the parser's result.
    ///   - bytes: the value's UTF-8 bytes.
    /// - Returns: the first broken promise, or nil.
    public static func checkCandidates(_ candidates: [SrcsetParser.Candidate], in bytes: [UInt8]) -> FuzzViolation? {
        if let violation = SpliceCheck.checkOrderedSpans(target: name, what: "candidate URL spans", spans: candidates.map(\.span), count: bytes.count) {
            return violation
        }
        for candidate in candidates {
            let url = bytes[candidate.span]
            guard let first = url.first, let last = url.last, first != UInt8(ascii: ","), last != UInt8(ascii: ","),
                  !url.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }) else {
                return FuzzViolation(target: name, invariant: "a candidate URL is non-empty, without whitespace or edge commas",
                                     evidence: "\(candidate.span) = \(Evidence.bytes(url)) in \(Evidence.bytes(bytes))")
            }
        }
        return nil
    }
}
