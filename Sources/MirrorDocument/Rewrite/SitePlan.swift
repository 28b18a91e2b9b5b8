/// The edits of a document rewritten at its ``ReferenceSite``s: sorted, non-overlapping spans,
/// each with its new bytes as a range of one shared buffer (empty for a deletion).
///
/// Built by ``ReferenceRewriter/rewrite(_:sites:deleting:charset:dropIntegrityOfRewritten:replacement:)``
/// and ``ReferenceRewriter/edits(at:in:deleting:charset:dropIntegrityOfRewritten:replacement:)``,
/// with the ordering rules of the reference-based edits: replacements and deletions sorted
/// by start (the longer first at one start), and edits inside a deleted span dropped.
struct SitePlan {
    /// The escaped replacement URLs, one after another.
    private(set) var arena: [UInt8] = []
    /// Each edit's span in the source and its bytes in ``arena``.
    private(set) var edits: [(span: Range<Int>, bytes: Range<Int>)] = []

    /// - Parameters: as ``ReferenceRewriter/edits(at:in:deleting:charset:dropIntegrityOfRewritten:replacement:)``.
    init(
        sites: [ReferenceSite], source: [UInt8], deletions: [Range<Int>], charset: Charset, dropIntegrityOfRewritten: Bool,
        replacement: (Int) -> String?
    ) {
        arena.reserveCapacity(sites.count * 32)
        edits.reserveCapacity(sites.count)
        var removed = deletions.filter { $0.upperBound <= source.count }
        for (index, site) in sites.enumerated() {
            let span = site.span
            guard span.upperBound <= source.count, let url = replacement(index) else { continue }
            let start = arena.count
            URLEncoder.append(url, for: site.syntax, charset: charset, to: &arena)
            if source[span].elementsEqual(arena[start...]) {
                arena.removeSubrange(start...)
                continue
            }
            edits.append((span, start..<arena.count))
            if dropIntegrityOfRewritten, let integrity = site.integritySpan, integrity.upperBound <= source.count {
                removed.append(integrity)
            }
        }
        guard !removed.isEmpty || !Self.isSorted(edits) else { return }
        order(deleting: removed)
    }

    /// Whether the edits are in order already (the sites of a parse are).
    private static func isSorted(_ edits: [(span: Range<Int>, bytes: Range<Int>)]) -> Bool {
        zip(edits, edits.dropFirst()).allSatisfy { precedes($0.span, $1.span) }
    }

    /// The edit order: by start, the longer first at one start.
    private static func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.lowerBound < b.lowerBound || (a.lowerBound == b.lowerBound && a.count > b.count)
    }

    /// Sorts the replacements together with the deletions (each deleted span once), and
    /// drops edits inside a deleted span (a `<base href>` that is also remapped).
    private mutating func order(deleting removed: [Range<Int>]) {
        let empty = arena.count..<arena.count
        var all = edits.map { (span: $0.span, bytes: $0.bytes, isDeletion: false) }
        all += Set(removed).map { (span: $0, bytes: empty, isDeletion: true) }
        all.sort { Self.precedes($0.span, $1.span) }
        var result: [(span: Range<Int>, bytes: Range<Int>)] = []
        result.reserveCapacity(all.count)
        var lastDeletion: Range<Int>?
        for edit in all {
            if let deleted = lastDeletion, edit.span.lowerBound >= deleted.lowerBound, edit.span.upperBound <= deleted.upperBound {
                continue
            }
            result.append((edit.span, edit.bytes))
            lastDeletion = edit.isDeletion ? edit.span : nil
        }
        edits = result
    }
}
