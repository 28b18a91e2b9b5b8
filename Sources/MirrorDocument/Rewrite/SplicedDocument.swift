/// A rewritten document that is not assembled: its source bytes and the edits to them.
///
/// Writing a rewritten document used to build it in a new array first: a copy of every byte of
/// the source into memory the process had not touched yet (each page a fault, on this
/// project's benchmark machines a fault of the host too), then a second copy into the file.
/// Node.js's API pages (18 MB of HTML, `all.html` alone 5.8 MB) spent a fifth of their rewrite
/// phase on the first copy (issue #27). ``withPieces(_:)`` hands the file writer the source's
/// unchanged runs and the new bytes in order instead, for one `pwritev(2)`, so that each byte
/// is copied once, into the file.
public struct SplicedDocument: Sendable {
    /// The bytes the edits apply to.
    public let source: [UInt8]
    private let plan: EditPlan
    /// The length of the edited document.
    public let count: Int

    /// - Throws: ``DocumentError`` when an edit lies outside `source`, or edits overlap.
    init(source: [UInt8], plan: EditPlan) throws(DocumentError) {
        let edits = plan.edits
        let arena = plan.arena
        let growth = try SpliceRewriter.validate(
            count: edits.count, span: { edits[$0].span }, replacement: { arena[edits[$0].bytes] }, length: source.count)
        self.source = source
        self.plan = plan
        self.count = source.count + growth
    }

    /// Whether some byte of the edited document differs from ``source``: an edit whose new
    /// bytes equal the bytes it replaces changes nothing.
    public var changesSource: Bool {
        plan.edits.contains { edit in
            edit.span.count != edit.bytes.count || !source[edit.span].elementsEqual(plan.arena[edit.bytes])
        }
    }

    /// The edited document in one array (``source`` itself when there is no edit).
    public func assembled() -> [UInt8] {
        let edits = plan.edits
        let arena = plan.arena
        return SpliceRewriter.assemble(count: edits.count, span: { edits[$0].span }, replacement: { arena[edits[$0].bytes] },
                                       to: source, growth: count - source.count)
    }

    /// Calls `body` with the edited document as pieces in order: runs of ``source`` and new
    /// bytes, none of them empty, valid only during the call.
    public func withPieces<Result, Failure: Error>(
        _ body: ([UnsafeRawBufferPointer]) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let edits = plan.edits
        let outcome: Swift.Result<Result, Failure> = source.withUnsafeBytes { whole in
            plan.arena.withUnsafeBytes { arena in
                var pieces: [UnsafeRawBufferPointer] = []
                pieces.reserveCapacity(edits.count * 2 + 1)
                var cursor = 0
                for edit in edits {
                    if edit.span.lowerBound > cursor {
                        pieces.append(UnsafeRawBufferPointer(rebasing: whole[cursor..<edit.span.lowerBound]))
                    }
                    if !edit.bytes.isEmpty { pieces.append(UnsafeRawBufferPointer(rebasing: arena[edit.bytes])) }
                    cursor = edit.span.upperBound
                }
                if cursor < whole.count { pieces.append(UnsafeRawBufferPointer(rebasing: whole[cursor...])) }
                do throws(Failure) {
                    return .success(try body(pieces))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }
}
