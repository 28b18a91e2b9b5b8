import Foundation
import MirrorCore

/// What the store knows about one fetched URL.
public struct ManifestEntry: Sendable, Hashable {
    /// The normalised URL without fragment (``WebURL/withoutFragment``), the entry's key.
    public let url: String
    /// The file holding the body, relative to the site folder; `nil` when nothing was stored.
    public var localPath: String?
    /// The HTTP status of the last response; `nil` when the fetch failed before one arrived.
    public var status: Int?
    /// The response's `Content-Type` header.
    public var contentType: String?
    /// The stored body's length in bytes.
    public var length: Int64?
    /// Lower-case hex SHA-256 of the stored body.
    public var sha256: String?
    /// The `ETag` header, for `If-None-Match` on refresh.
    public var etag: String?
    /// The `Last-Modified` header, for `If-Modified-Since` on refresh.
    public var lastModified: String?
    /// When the response (or the failure) was recorded.
    public var fetchedAt: Date?
    /// Why the last fetch failed, as one line; `nil` when it succeeded.
    public var error: String?
    /// Normalised URLs referenced by the document, reused when a refresh gets `304`.
    ///
    /// A reference that is a page requisite (image, stylesheet, script, font…) is written with
    /// a leading `+` (`+https://site/img/a.png`), so that a refresh that gets `304 Not Modified`
    /// can keep crawling from the stored list with the right kind of link.
    public var references: [String]
    /// Set when a run that stopped early (its time budget, a signal) carried the entry over from
    /// the previous snapshot without asking the server again: the file is the previous one, and
    /// ``fetchedAt`` is still when it was last checked. The next run revalidates it first.
    public var stale: Stale?

    /// How a stale entry was fetched when it was last checked, so that the next run can
    /// revalidate it as the same kind of link.
    public struct Stale: Sendable, Hashable {
        /// Its link depth from a start URL.
        public var depth: Int
        /// Whether it was fetched as a page requisite.
        public var isRequisite: Bool

        public init(depth: Int, isRequisite: Bool) {
            self.depth = depth
            self.isRequisite = isRequisite
        }
    }

    /// Creates an entry for `url` (its fragment is dropped).
    /// - Parameters:
    ///   - url: the fetched URL.
    ///   - localPath: the body's file, relative to the site folder.
    ///   - status: the HTTP status.
    ///   - contentType: the `Content-Type` header.
    ///   - length: the body length in bytes.
    ///   - sha256: lower-case hex SHA-256 of the body.
    ///   - etag: the `ETag` header.
    ///   - lastModified: the `Last-Modified` header.
    ///   - fetchedAt: when it was fetched.
    ///   - error: the failure, if the fetch failed.
    ///   - references: the normalised URLs the document refers to.
    public init(
        url: WebURL, localPath: String? = nil, status: Int? = nil, contentType: String? = nil,
        length: Int64? = nil, sha256: String? = nil, etag: String? = nil, lastModified: String? = nil,
        fetchedAt: Date? = nil, error: String? = nil, references: [String] = [], stale: Stale? = nil
    ) {
        self.init(key: url.withoutFragment.string, localPath: localPath, status: status,
                  contentType: contentType, length: length, sha256: sha256, etag: etag,
                  lastModified: lastModified, fetchedAt: fetchedAt, error: error, references: references, stale: stale)
    }

    /// Creates an entry from its stored key; used when loading.
    init(
        key: String, localPath: String?, status: Int?, contentType: String?, length: Int64?,
        sha256: String?, etag: String?, lastModified: String?, fetchedAt: Date?, error: String?,
        references: [String], stale: Stale? = nil
    ) {
        self.url = key
        self.localPath = localPath
        self.status = status
        self.contentType = contentType
        self.length = length
        self.sha256 = sha256
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.error = error
        self.references = references
        self.stale = stale
    }
}
