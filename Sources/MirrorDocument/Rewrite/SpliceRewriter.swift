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
        try apply(count: edits.count, span: { edits[$0].span }, replacement: { edits[$0].replacement }, to: bytes)
    }

    /// ``apply(_:to:)`` for edits given by index: `span(i)` and `replacement(i)` for `i` in
    /// `0..<count` (so that replacements can be slices of one buffer).
    static func apply<Replacement: Collection<UInt8>>(
        count: Int, span: (Int) -> Range<Int>, replacement: (Int) -> Replacement, to bytes: [UInt8]
    ) throws(DocumentError) -> [UInt8] {
        let growth = try validate(count: count, span: span, replacement: replacement, length: bytes.count)
        return assemble(count: count, span: span, replacement: replacement, to: bytes, growth: growth)
    }

    /// ``apply(count:span:replacement:to:)`` for edits already validated, which grow the
    /// document by `growth` bytes.
    static func assemble<Replacement: Collection<UInt8>>(
        count: Int, span: (Int) -> Range<Int>, replacement: (Int) -> Replacement, to bytes: [UInt8], growth: Int
    ) -> [UInt8] {
        // No edit: the same array, not a copy (most documents of a site whose links are
        // already relative keep every byte).
        if count == 0 { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(max(0, bytes.count + growth))
        var cursor = 0
        for index in 0..<count {
            let edit = span(index)
            out.append(contentsOf: bytes[cursor..<edit.lowerBound])
            out.append(contentsOf: replacement(index))
            cursor = edit.upperBound
        }
        out.append(contentsOf: bytes[cursor...])
        return out
    }

    /// Checks that the edits lie inside a document of `length` bytes, sorted and without
    /// overlap (two insertions at one place are refused too).
    /// - Returns: how many bytes longer the edited document is (negative: shorter).
    /// - Throws: `DocumentError.editOutOfBounds`, `DocumentError.overlappingEdits`.
    static func validate<Replacement: Collection<UInt8>>(
        count: Int, span: (Int) -> Range<Int>, replacement: (Int) -> Replacement, length: Int
    ) throws(DocumentError) -> Int {
        var previous: Range<Int>?
        var growth = 0
        for index in 0..<count {
            let edit = span(index)
            guard edit.lowerBound >= 0, edit.upperBound <= length else {
                throw .editOutOfBounds(span: edit, documentLength: length)
            }
            if let previous, edit.lowerBound < previous.upperBound || (edit.lowerBound == previous.lowerBound && !previous.isEmpty) {
                throw .overlappingEdits(first: previous, second: edit)
            }
            previous = edit
            growth += replacement(index).count - edit.count
        }
        return growth
    }
}
