/// One edit of a document: replace the bytes of `span` with `replacement`.
public struct Rewrite: Sendable, Hashable {
    /// The bytes to replace (an empty range inserts).
    public var span: Range<Int>
    /// The new bytes.
    public var replacement: [UInt8]

    /// Creates an edit.
    public init(span: Range<Int>, replacement: [UInt8]) {
        self.span = span
        self.replacement = replacement
    }
}

/// Applies edits to the original bytes of a document, leaving every byte outside the edited
/// spans exactly as it was (wget2's `convert_links` approach, rather than re-serialising a tree).
public enum SpliceRewriter {
    /// Returns `bytes` with each edit's span replaced.
    ///
    /// - Parameters:
    ///   - edits: Edits sorted by position; they may touch but not overlap.
    ///   - bytes: The original document.
    /// - Returns: The edited document.
    /// - Throws: `DocumentError.editOutOfBounds` when a span is outside `bytes`;
    ///   `DocumentError.overlappingEdits` when edits overlap or are out of order.
    public static func apply(_ edits: [Rewrite], to bytes: [UInt8]) throws(DocumentError) -> [UInt8] {
        var previous: Range<Int>?
        var growth = 0
        for edit in edits {
            guard edit.span.lowerBound >= 0, edit.span.upperBound <= bytes.count else {
                throw .editOutOfBounds(span: edit.span, documentLength: bytes.count)
            }
            if let previous, edit.span.lowerBound < previous.upperBound
                || (edit.span.lowerBound == previous.lowerBound && !previous.isEmpty)
            {
                throw .overlappingEdits(first: previous, second: edit.span)
            }
            previous = edit.span
            growth += edit.replacement.count - edit.span.count
        }
        var out: [UInt8] = []
        out.reserveCapacity(max(0, bytes.count + growth))
        var cursor = 0
        for edit in edits {
            out.append(contentsOf: bytes[cursor..<edit.span.lowerBound])
            out.append(contentsOf: edit.replacement)
            cursor = edit.span.upperBound
        }
        out.append(contentsOf: bytes[cursor...])
        return out
    }
}
