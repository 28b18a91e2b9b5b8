import MirrorCore
import MirrorDocument
import MirrorStore

/// The rewrite of one document, prepared while the crawl parses it: where each reference sits
/// (``MirrorDocument/ReferenceSite``) and which URL it points at. Once every local path is
/// known, the rewrite splices the new links into the stored bytes without parsing the
/// document or resolving its references again (``LinkPlanner`` decides the same way).
///
/// A fetch task builds a ``Draft``, whose targets are numbered within the document (each
/// distinct URL once, ``keys``); a crawl writes the finished rewrite to a spill file
/// (``write(to:)``) and reads it back for the rewrite phase (``read(from:)``), so that memory
/// holds no document's references (issue #27).
struct DeferredRewrite: Sendable, Equatable {
    /// The target number of a value that is no valid URL (written as `about:invalid`).
    static let invalid = UInt32.max
    /// The flag bit of a target whose value names its scheme and host (kept when not mirrored).
    static let absoluteBit: UInt32 = 1 << 31

    let sites: [ReferenceSite]
    /// Per site: the target's number in ``keys``, with ``absoluteBit`` set when written
    /// absolute; or ``invalid``.
    let targets: [UInt32]
    /// Site index → fragment of the reference (rare).
    let fragments: [Int: String]
    /// `<base href>` attributes, removed because rewritten links are relative to the file.
    let deletions: [Range<Int>]
    let charset: Charset
    /// The length of the bytes that were parsed: the stored original must have it.
    let length: Int
    /// The distinct target URLs (normalised, without fragment), by number.
    let keys: [String]

    /// A document's references as a fetch task finds them; targets are numbered in ``keys``.
    struct Draft: Sendable {
        fileprivate var sites: [ReferenceSite] = []
        fileprivate var targets: [UInt32] = []
        fileprivate var fragments: [Int: String] = [:]
        fileprivate var deletions: [Range<Int>] = []
        fileprivate var keys: [WebURL] = []
        private var keyNumbers: [WebURL: UInt32] = [:]
        fileprivate let charset: Charset
        fileprivate let length: Int
        /// False once a reference could not be kept (offsets beyond 32 bits): the document is
        /// then parsed again at rewrite time.
        fileprivate(set) var isComplete = true

        /// - Parameters:
        ///   - charset: the charset the document was parsed with.
        ///   - length: the length of the parsed bytes.
        init(charset: Charset, length: Int) {
            self.charset = charset
            self.length = length
        }

        /// Makes room for `count` references (and as many distinct targets: the key tables
        /// are dropped once the draft is turned into a ``DeferredRewrite``).
        mutating func reserve(_ count: Int) {
            sites.reserveCapacity(count)
            targets.reserveCapacity(count)
            keys.reserveCapacity(count)
            keyNumbers.reserveCapacity(count)
        }

        /// Notes a `<base href>` attribute to remove.
        mutating func delete(_ span: Range<Int>) { deletions.append(span) }

        /// Notes one reference, its target without fragment and the fragment apart
        /// (``ResolutionCache/resolve(_:baseURL:folder:)``).
        /// - Returns: the number the target's URL has in this draft (the same for every
        ///   reference to that URL), or nil for an invalid target or a reference not kept.
        @discardableResult
        mutating func add(_ reference: Reference, target: LinkTarget, fragment: String?) -> Int? {
            guard let site = ReferenceSite(reference) else {
                isComplete = false
                return nil
            }
            var result: Int?
            switch target {
            case .invalid:
                targets.append(DeferredRewrite.invalid)
            case .url(let key, let writtenAbsolute):
                let number: UInt32
                if let known = keyNumbers[key] {
                    number = known
                } else {
                    number = UInt32(keys.count)
                    keys.append(key)
                    keyNumbers[key] = number
                }
                if let fragment { fragments[sites.count] = fragment }
                targets.append(writtenAbsolute ? number | DeferredRewrite.absoluteBit : number)
                result = Int(number)
            }
            sites.append(site)
            return result
        }
    }

    /// The rewrite of `draft`; nil when the draft is incomplete.
    init?(_ draft: Draft) {
        guard draft.isComplete else { return nil }
        sites = draft.sites
        targets = draft.targets
        fragments = draft.fragments
        deletions = draft.deletions
        charset = draft.charset
        length = draft.length
        keys = draft.keys.map(\.string)
    }

    init(sites: [ReferenceSite], targets: [UInt32], fragments: [Int: String], deletions: [Range<Int>], charset: Charset,
         length: Int, keys: [String]) {
        self.sites = sites
        self.targets = targets
        self.fragments = fragments
        self.deletions = deletions
        self.charset = charset
        self.length = length
        self.keys = keys
    }

    /// The rewritten document, assembled (``splice(_:documentPath:localPaths:)``).
    func rewrite(_ bytes: [UInt8], documentPath: String, localPaths: [String?]) throws(DocumentError) -> [UInt8]? {
        try splice(bytes, documentPath: documentPath, localPaths: localPaths)?.assembled()
    }

    /// The rewritten document, as the original and its edits.
    /// - Parameters:
    ///   - bytes: the stored original (``length`` bytes).
    ///   - documentPath: the document's path relative to the site folder.
    ///   - localPaths: per number in ``keys``, the local path of a mirrored URL, or nil.
    /// - Returns: nil when `bytes` are not the ones that were parsed.
    /// - Throws: ``MirrorDocument/DocumentError`` only if the sites do not belong to `bytes`.
    func splice(_ bytes: [UInt8], documentPath: String, localPaths: [String?]) throws(DocumentError) -> SplicedDocument? {
        guard bytes.count == length, localPaths.count == keys.count else { return nil }
        // A document links the same file many times (navigation, the anchors of one page): its
        // relative link is computed once, and each reference adds its own fragment.
        var relativeLinks: [Int: String] = [:]
        return try ReferenceRewriter.splice(bytes, sites: sites, deleting: deletions, charset: charset) { index in
            let target = targets[index]
            if target == Self.invalid { return "about:invalid" }
            let number = Int(target & ~Self.absoluteBit)
            let fragment = fragments[index]
            if let localPath = localPaths[number] {
                // Already a working relative link (`../mod/core.html`): left as written.
                let span = sites[index].span
                if span.upperBound <= bytes.count, PathMapper.leadsTo(bytes[span], from: documentPath, to: localPath, fragment: fragment) {
                    return nil
                }
                let link: String
                if let known = relativeLinks[number] {
                    link = known
                } else {
                    link = PathMapper.relativeLink(from: documentPath, to: localPath)
                    relativeLinks[number] = link
                }
                return PathMapper.appendingFragment(fragment, to: link)
            }
            return LinkPlanner.text(
                documentPath: documentPath, localPath: nil, url: keys[number], fragment: fragment,
                writtenAbsolute: target & Self.absoluteBit != 0)
        }
    }
}
