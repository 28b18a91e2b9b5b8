/// The edits of one document: sorted, non-overlapping spans, each with its new bytes as a range
/// of one shared buffer (empty for a deletion), so that a rewrite allocates per document, not
/// per reference.
///
/// Built from extracted ``Reference``s (``ReferenceRewriter/edits(for:charset:options:replacement:)``)
/// or from ``ReferenceSite``s kept by a crawl
/// (``ReferenceRewriter/rewrite(_:sites:deleting:charset:dropIntegrityOfRewritten:replacement:)``).
/// Either way replacements and deletions are sorted by start (the longer first at one start),
/// each deleted span once, and edits inside a deleted span dropped (a `<base href>` that is
/// also remapped).
struct EditPlan: Sendable {
    /// The escaped replacement URLs, one after another.
    private(set) var arena: [UInt8] = []
    /// Each edit's span in the source and its bytes in ``arena``.
    private(set) var edits: [(span: Range<Int>, bytes: Range<Int>)] = []

    /// The plan for extracted references: a replacement equal to the reference's decoded
    /// value leaves it unchanged.
    init(references: [Reference], charset: Charset, options: ReferenceRewriter.Options, replacement: (Reference) -> String?) {
        arena.reserveCapacity(references.count * 32)
        edits.reserveCapacity(references.count)
        var removed: [Range<Int>] = []
        for reference in references {
            if reference.kind == .base, options.neutraliseBase, let attribute = reference.attributeSpan {
                removed.append(attribute)
                continue
            }
            guard let url = replacement(reference), url != reference.value else { continue }
            let start = arena.count
            URLEncoder.append(url, for: reference.syntax, charset: charset, to: &arena)
            edits.append((reference.span, start..<arena.count))
            if options.dropIntegrityOfRewritten, let integrity = reference.integritySpan { removed.append(integrity) }
        }
        order(deleting: removed)
    }

    /// The plan for sites from an earlier parse of `source`: a replacement whose escaped bytes
    /// equal the bytes in place leaves the site unchanged (the decoded value is not kept), and
    /// sites or deletions outside `source` are ignored.
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
        order(deleting: removed)
    }

    /// The edits as ``Rewrite`` values, one array each.
    var rewrites: [Rewrite] {
        edits.map { Rewrite(span: $0.span, replacement: Array(arena[$0.bytes])) }
    }

    /// `source` with the edits, not assembled (``SplicedDocument``).
    /// - Throws: ``DocumentError`` when an edit lies outside `source`.
    func splice(_ source: [UInt8]) throws(DocumentError) -> SplicedDocument {
        try SplicedDocument(source: source, plan: self)
    }

    /// The edit order: by start, the longer first at one start.
    private static func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.lowerBound < b.lowerBound || (a.lowerBound == b.lowerBound && a.count > b.count)
    }

    /// Sorts the replacements together with the deletions (each deleted span once), and
    /// drops edits inside a deleted span. Edits already in order without deletions (the usual
    /// case: sites come in document order) are left as they are.
    private mutating func order(deleting removed: [Range<Int>]) {
        if removed.isEmpty, zip(edits, edits.dropFirst()).allSatisfy({ Self.precedes($0.span, $1.span) }) { return }
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
