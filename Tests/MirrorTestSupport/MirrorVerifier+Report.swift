extension MirrorVerifier {
    /// A reference found in a mirrored file, named by the file's path relative to the snapshot root.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The file holding the reference, relative to the snapshot root (e.g. `"docs/index.html"`).
        public var file: String
        /// The reference exactly as the extractor decoded it (entities and CSS escapes decoded).
        public var reference: String

        /// Creates a finding.
        ///
        /// - Parameters:
        ///   - file: The file's path relative to the snapshot root.
        ///   - reference: The reference as written.
        public init(file: String, reference: String) {
            self.file = file
            self.reference = reference
        }

        public var description: String { "\(file): \(reference)" }
    }

    /// A local reference whose target cannot be opened from the mirror.
    public struct BrokenReference: Sendable, Hashable, CustomStringConvertible {
        /// The file holding the reference, relative to the snapshot root.
        public var file: String
        /// The reference as written.
        public var reference: String
        /// Why the reference does not lead to a file of the mirror.
        public var reason: Reason

        /// Creates a broken-reference record.
        ///
        /// - Parameters:
        ///   - file: The file's path relative to the snapshot root.
        ///   - reference: The reference as written.
        ///   - reason: Why it is broken.
        public init(file: String, reference: String, reason: Reason) {
            self.file = file
            self.reference = reference
            self.reason = reason
        }

        public var description: String { "\(file): \(reference) (\(reason))" }
    }

    /// Why a local reference is broken.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The resolved file does not exist. `path` is relative to the snapshot root.
        case missingTarget(path: String)
        /// The reference names a directory (`dir/`) that holds no `index.html`.
        case directoryWithoutIndex(path: String)
        /// The reference names a directory without a trailing slash (`dir`), which a browser
        /// opens as a directory listing, not as a page.
        case targetIsDirectory(path: String)
        /// The reference carries a query (`page.html?x=1`): on `file://` the query is dropped,
        /// so a mirrored reference must have it encoded into the file name instead.
        case hasQuery
        /// A percent escape is malformed, is not UTF-8, or decodes to `/` or NUL inside a name.
        case invalidPercentEncoding
        /// An absolute `file:` URL, which only works on the machine that wrote it.
        case absoluteFileURL

        public var description: String {
            switch self {
            case .missingTarget(let path): "no file \(path)"
            case .directoryWithoutIndex(let path): "directory \(path) has no index.html"
            case .targetIsDirectory(let path): "\(path) is a directory"
            case .hasQuery: "a local reference must not carry a query"
            case .invalidPercentEncoding: "invalid percent encoding"
            case .absoluteFileURL: "absolute file: URL"
            }
        }
    }

    /// What ``MirrorVerifier/verify(snapshotRoot:originPrefixes:)`` found.
    public struct Report: Sendable, CustomStringConvertible {
        /// HTML and CSS files read.
        public var checkedFiles = 0
        /// References looked at (all kinds, including skipped and external ones; `<base>` excluded).
        public var checkedReferences = 0
        /// Local references that resolved to a file of the mirror.
        public var resolvedReferences = 0
        /// References left alone: fragment-only, empty, and non-fetchable schemes (`mailto:`,
        /// `javascript:`, `data:`, `tel:`…).
        public var skippedReferences = 0
        /// Absolute references to hosts outside `originPrefixes`.
        public var externalReferences = 0
        /// Local references that do not lead to a file of the mirror.
        public var broken: [BrokenReference] = []
        /// Absolute references (or references resolved against an absolute `<base>`) that
        /// start with one of the origin prefixes: the mirror still depends on the origin.
        public var pointsAtOrigin: [Finding] = []
        /// Relative references that resolve outside the snapshot root, including root-relative
        /// ones (`/x`, which on `file://` means the file system's root).
        public var escapesRoot: [Finding] = []
        /// Files that could not be read or parsed, with the reason.
        public var unreadable: [Finding] = []

        /// Creates an empty report.
        public init() {}

        /// True when nothing is broken, nothing points at the origin or escapes, and every file was read.
        public var isClean: Bool { broken.isEmpty && pointsAtOrigin.isEmpty && escapesRoot.isEmpty && unreadable.isEmpty }

        /// Counts, then up to 20 findings of each kind: a test failure message.
        public var description: String {
            var lines = ["\(checkedFiles) files, \(checkedReferences) references: \(resolvedReferences) resolved, "
                + "\(skippedReferences) skipped, \(externalReferences) external, \(broken.count) broken, "
                + "\(pointsAtOrigin.count) at origin, \(escapesRoot.count) escaping, \(unreadable.count) unreadable"]
            lines += broken.prefix(20).map { "  broken: \($0)" }
            lines += pointsAtOrigin.prefix(20).map { "  origin: \($0)" }
            lines += escapesRoot.prefix(20).map { "  escapes: \($0)" }
            lines += unreadable.prefix(20).map { "  unreadable: \($0)" }
            return lines.joined(separator: "\n")
        }
    }
}
