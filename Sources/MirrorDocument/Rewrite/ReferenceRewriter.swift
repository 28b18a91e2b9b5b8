/// Turns references and a replacement map into splice edits, and applies them.
///
/// The caller decides each reference's new URL (usually a relative path to the local copy);
/// the rewriter escapes it for its context, drops `integrity` attributes of elements whose
/// reference it rewrote (the local bytes may differ from what the hash covers) and, when
/// asked, removes `<base href>` so that rewritten relative URLs resolve against the local file.
public enum ReferenceRewriter {
    /// What to do besides replacing URLs.
    public struct Options: Sendable, Hashable {
        /// Remove the `integrity` attribute of every element with a rewritten reference.
        public var dropIntegrityOfRewritten: Bool
        /// Remove the `href` attribute of `<base>` elements.
        public var neutraliseBase: Bool

        /// Creates options; by default integrity attributes are dropped and `<base>` is kept.
        public init(dropIntegrityOfRewritten: Bool = true, neutraliseBase: Bool = false) {
            self.dropIntegrityOfRewritten = dropIntegrityOfRewritten
            self.neutraliseBase = neutraliseBase
        }
    }

    /// Builds the edits for a set of references.
    ///
    /// - Parameters:
    ///   - references: References of one document, as extracted.
    ///   - charset: The document's charset (decides how non-ASCII is written).
    ///   - options: Integrity and `<base>` handling.
    ///   - replacement: The new URL for a reference, or nil to leave it unchanged. A result
    ///     equal to the reference's value also leaves the bytes unchanged.
    /// - Returns: Sorted, non-overlapping edits for ``SpliceRewriter/apply(_:to:)``.
    public static func edits(
        for references: [Reference], charset: Charset = .utf8, options: Options = Options(),
        replacement: (Reference) -> String?
    ) -> [Rewrite] {
        EditPlan(references: references, charset: charset, options: options, replacement: replacement).rewrites
    }

    /// Builds the edits for references kept as sites from an earlier parse of `source`: the
    /// plan of ``rewrite(_:sites:deleting:charset:dropIntegrityOfRewritten:replacement:)``,
    /// one array per edit.
    ///
    /// Unlike ``edits(for:charset:options:replacement:)``, a replacement is skipped when its
    /// escaped bytes equal the bytes already there (the decoded value is not kept).
    /// - Parameters:
    ///   - sites: The document's references, as ``ReferenceSite``s, in any order.
    ///   - source: The bytes the sites index (the document as parsed).
    ///   - deletions: Spans to remove, such as `<base href>` attributes.
    ///   - charset: The document's charset (decides how non-ASCII is written).
    ///   - dropIntegrityOfRewritten: Remove the `integrity` attribute of a rewritten reference.
    ///   - replacement: The new URL for the site at an index, or nil to leave it.
    /// - Returns: Sorted, non-overlapping edits for ``SpliceRewriter/apply(_:to:)``. Sites
    ///   outside `source` are ignored (the splice would refuse them).
    public static func edits(
        at sites: [ReferenceSite], in source: [UInt8], deleting deletions: [Range<Int>], charset: Charset = .utf8,
        dropIntegrityOfRewritten: Bool = true, replacement: (Int) -> String?
    ) -> [Rewrite] {
        EditPlan(sites: sites, source: source, deletions: deletions, charset: charset,
                 dropIntegrityOfRewritten: dropIntegrityOfRewritten, replacement: replacement).rewrites
    }

    /// Rewrites `source` at its sites: ``SpliceRewriter/apply(_:to:)`` of
    /// ``edits(at:in:deleting:charset:dropIntegrityOfRewritten:replacement:)``, with every new
    /// URL escaped into one shared buffer instead of an array each (this runs for every
    /// reference of every document).
    /// - Throws: ``DocumentError`` only if the sites do not belong to `source`.
    public static func rewrite(
        _ source: [UInt8], sites: [ReferenceSite], deleting deletions: [Range<Int>], charset: Charset = .utf8,
        dropIntegrityOfRewritten: Bool = true, replacement: (Int) -> String?
    ) throws(DocumentError) -> [UInt8] {
        try splice(source, sites: sites, deleting: deletions, charset: charset,
                   dropIntegrityOfRewritten: dropIntegrityOfRewritten, replacement: replacement).assembled()
    }

    /// ``rewrite(_:sites:deleting:charset:dropIntegrityOfRewritten:replacement:)``, not
    /// assembled: the source and its edits, for a file writer (``SplicedDocument``).
    public static func splice(
        _ source: [UInt8], sites: [ReferenceSite], deleting deletions: [Range<Int>], charset: Charset = .utf8,
        dropIntegrityOfRewritten: Bool = true, replacement: (Int) -> String?
    ) throws(DocumentError) -> SplicedDocument {
        try EditPlan(sites: sites, source: source, deletions: deletions, charset: charset,
                     dropIntegrityOfRewritten: dropIntegrityOfRewritten, replacement: replacement).splice(source)
    }

    /// Rewrites an HTML document.
    ///
    /// - Parameters:
    ///   - extraction: The extraction of the document; its ``HTMLExtraction/source`` is edited.
    ///   - options: Integrity and `<base>` handling.
    ///   - replacement: The new URL for a reference, or nil to leave it.
    /// - Returns: The rewritten bytes (UTF-8 when the input was transcoded from UTF-16).
    /// - Throws: `DocumentError.overlappingEdits` or `.editOutOfBounds` only if the references
    ///   do not belong to this extraction.
    public static func rewrite(
        _ extraction: HTMLExtraction, options: Options = Options(), replacement: (Reference) -> String?
    ) throws(DocumentError) -> [UInt8] {
        try splice(extraction, options: options, replacement: replacement).assembled()
    }

    /// ``rewrite(_:options:replacement:)``, not assembled: the extraction's
    /// ``HTMLExtraction/source`` and its edits, for a file writer (``SplicedDocument``).
    public static func splice(
        _ extraction: HTMLExtraction, options: Options = Options(), replacement: (Reference) -> String?
    ) throws(DocumentError) -> SplicedDocument {
        let charset: Charset = extraction.isTranscoded ? .utf8 : extraction.charset
        return try EditPlan(references: extraction.references, charset: charset, options: options, replacement: replacement)
            .splice(extraction.source)
    }

    /// Rewrites a CSS file.
    ///
    /// - Parameters:
    ///   - css: The stylesheet's bytes.
    ///   - charset: Its charset.
    ///   - replacement: The new URL for a reference, or nil to leave it.
    /// - Returns: The rewritten stylesheet.
    /// - Throws: Never in practice: the edits come from this stylesheet's own references.
    public static func rewriteCSS(
        _ css: [UInt8], charset: Charset = .utf8, replacement: (Reference) -> String?
    ) throws(DocumentError) -> [UInt8] {
        try spliceCSS(css, charset: charset, replacement: replacement).assembled()
    }

    /// ``rewriteCSS(_:charset:replacement:)``, not assembled (``SplicedDocument``).
    public static func spliceCSS(
        _ css: [UInt8], charset: Charset = .utf8, replacement: (Reference) -> String?
    ) throws(DocumentError) -> SplicedDocument {
        let references = CSSExtractor.extract(css, charset: charset)
        return try EditPlan(references: references, charset: charset, options: Options(), replacement: replacement).splice(css)
    }
}
