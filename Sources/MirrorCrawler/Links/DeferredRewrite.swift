import MirrorCore
import MirrorDocument
import MirrorStore

/// The rewrite of one document, prepared while the crawl parses it: where each reference sits
/// (``MirrorDocument/ReferenceSite``) and which URL it points at. Once every local path is
/// known, the rewrite splices the new links into the stored bytes without parsing the
/// document or resolving its references again (``LinkPlanner`` decides the same way).
///
/// A fetch task builds a ``Draft`` (targets numbered within the document); the crawl state
/// turns it into a ``DeferredRewrite`` whose targets are numbers in its ``URLTable``, so that
/// each reference costs 24 bytes whatever its URL.
struct DeferredRewrite: Sendable {
    /// The target number of a value that is no valid URL (written as `about:invalid`).
    static let invalid = UInt32.max
    /// The flag bit of a target whose value names its scheme and host (kept when not mirrored).
    private static let absoluteBit: UInt32 = 1 << 31

    let sites: [ReferenceSite]
    /// Per site: the target's number, with ``absoluteBit`` set when written absolute; or ``invalid``.
    private let targets: [UInt32]
    /// Site index → fragment of the reference (rare).
    private let fragments: [Int: String]
    /// `<base href>` attributes, removed because rewritten links are relative to the file.
    private let deletions: [Range<Int>]
    private let charset: Charset
    /// The length of the bytes that were parsed: the stored original must have it.
    let length: Int

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

    /// The rewrite of `draft`, its targets numbered in `table` (added when new).
    /// Nil when the draft is incomplete.
    init?(_ draft: Draft, table: inout URLTable) {
        guard draft.isComplete else { return nil }
        let numbers = draft.keys.map { table.number(of: $0) }
        sites = draft.sites
        targets = draft.targets.map { target in
            if target == Self.invalid { return target }
            let number = numbers[Int(target & ~Self.absoluteBit)]
            return target & Self.absoluteBit != 0 ? number | Self.absoluteBit : number
        }
        fragments = draft.fragments
        deletions = draft.deletions
        charset = draft.charset
        length = draft.length
    }

    /// The rewritten document.
    /// - Parameters:
    ///   - bytes: the stored original (``length`` bytes).
    ///   - documentPath: the document's path relative to the site folder.
    ///   - urls: the table the targets are numbered in.
    ///   - localPaths: per number in `urls`, the local path of a mirrored URL, or nil.
    /// - Returns: nil when `bytes` are not the ones that were parsed.
    /// - Throws: ``MirrorDocument/DocumentError`` only if the sites do not belong to `bytes`.
    func rewrite(
        _ bytes: [UInt8], documentPath: String, urls: URLTable, localPaths: [String?]
    ) throws(DocumentError) -> [UInt8]? {
        guard bytes.count == length else { return nil }
        // A document links the same file many times (navigation, the anchors of one page): its
        // relative link is computed once, and each reference adds its own fragment.
        var relativeLinks: [Int: String] = [:]
        return try ReferenceRewriter.rewrite(bytes, sites: sites, deleting: deletions, charset: charset) { index in
            let target = targets[index]
            if target == Self.invalid { return "about:invalid" }
            let number = Int(target & ~Self.absoluteBit)
            let fragment = fragments[index]
            if let localPath = localPaths[number] {
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
                documentPath: documentPath, localPath: nil, url: urls.strings[number], fragment: fragment,
                writtenAbsolute: target & Self.absoluteBit != 0)
        }
    }
}
