import MirrorCore

/// Failures of the document layer: extraction and rewriting.
public enum DocumentError: DiagnosableError, Equatable {
    /// libxml2 could not create an HTML parser context.
    case parserUnavailable(reason: String)
    /// The document is larger than libxml2 accepts (2 GiB).
    case documentTooLarge(bytes: Int)
    /// A rewrite's span lies outside the document.
    case editOutOfBounds(span: Range<Int>, documentLength: Int)
    /// Two rewrites overlap or are not sorted by position.
    case overlappingEdits(first: Range<Int>, second: Range<Int>)

    /// `.limit` for oversized documents, `.internal` otherwise.
    public var category: ErrorCategory {
        switch self {
        case .documentTooLarge: .limit
        case .parserUnavailable, .editOutOfBounds, .overlappingEdits: .internal
        }
    }

    /// One line with the evidence (reason, sizes, spans).
    public var summary: String {
        switch self {
        case .parserUnavailable(let reason): "libxml2 HTML parser unavailable: \(reason)"
        case .documentTooLarge(let bytes): "HTML document of \(bytes) bytes is too large to parse"
        case .editOutOfBounds(let span, let length):
            "rewrite of bytes \(span.lowerBound)..<\(span.upperBound) is outside the \(length)-byte document"
        case .overlappingEdits(let first, let second):
            "rewrites overlap or are unsorted: \(first.lowerBound)..<\(first.upperBound) and \(second.lowerBound)..<\(second.upperBound)"
        }
    }

    /// What to try next.
    public var hint: String {
        switch self {
        case .parserUnavailable: "check that libxml2 is installed and memory is available"
        case .documentTooLarge: "lower the maximum document size so such pages are stored without rewriting"
        case .editOutOfBounds, .overlappingEdits: "this is a bug in the rewrite plan; report it with the page"
        }
    }
}
