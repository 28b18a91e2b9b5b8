/// An absolute, normalised `http` or `https` URL.
///
/// `WebURL` is the single URL type the mirror uses for fetching, deduplication and mapping to
/// files. It is parsed by its own byte-level parser (RFC 3986 with the WHATWG URL Standard's
/// leniency where browsers are lenient), not by `Foundation.URL`, whose parsing differs between
/// platforms. Every value is normalised when it is created, so two `WebURL`s that address the
/// same resource compare equal:
///
/// - scheme and host are lower-cased; the default port (80 for http, 443 for https) is dropped;
/// - dot segments are removed from the path, including their percent-encoded forms (`%2e`),
///   and an empty path becomes `/`;
/// - percent-encoding uses upper-case hex, encoded unreserved characters (`%41` → `A`) are
///   decoded, and characters that may not appear raw (space, `"`, `<`, `>`, non-ASCII as
///   UTF-8, …) are encoded; a `%` not followed by two hex digits becomes `%25`;
/// - an empty query (`?`) or fragment (`#`) is dropped; the order of query parameters is kept.
///
/// Components hold the normalised, still percent-encoded text.
///
/// The components live in one shared, immutable object: a crawl holds and copies URLs by the
/// thousand (queue entries, referrers, links), and a copy is then one reference, not seven.
public struct WebURL: Sendable, Hashable, CustomStringConvertible {
    private final class Storage: Sendable {
        let scheme: String
        let host: String
        let port: Int?
        let path: String
        let query: String?
        let fragment: String?
        let string: String
        /// `string` hashed once: a URL is a key in several tables of a crawl (the rewrite's
        /// numbering, the URL table, the manifest's reference texts), each of which would hash
        /// its text again.
        let hash: Int

        init(scheme: String, host: String, port: Int?, path: String, query: String?, fragment: String?, string: String) {
            self.scheme = scheme
            self.host = host
            self.port = port
            self.path = path
            self.query = query
            self.fragment = fragment
            self.string = string
            var hasher = Hasher()
            hasher.combine(string)
            hash = hasher.finalize()
        }
    }

    private let storage: Storage

    /// `http` or `https`.
    public var scheme: String { storage.scheme }
    /// The lower-cased host name, or an IPv6 literal in brackets (`[::1]`).
    public var host: String { storage.host }
    /// The port when it is not the scheme's default, otherwise `nil`.
    public var port: Int? { storage.port }
    /// The normalised path; never empty, always starting with `/`.
    public var path: String { storage.path }
    /// The normalised query without its `?`, or `nil` when there is none (or it was empty).
    public var query: String? { storage.query }
    /// The normalised fragment without its `#`, or `nil` when there is none (or it was empty).
    public var fragment: String? { storage.fragment }

    /// The normalised serialisation, including the fragment when there is one. Built once:
    /// it identifies the URL (equality and hashing use it alone, hashing through a hash of it
    /// computed once).
    public var string: String { storage.string }

    /// The longest input, in UTF-8 bytes, that parsing accepts unless told otherwise.
    public static let defaultMaximumLength = 8192

    /// Creates a URL from already-normalised components. Only the parser calls this.
    init(scheme: String, host: String, port: Int?, path: String, query: String?, fragment: String?) {
        let portText = port.map { String($0) }
        var text = ""
        text.reserveCapacity(scheme.utf8.count + 3 + host.utf8.count + (portText.map { $0.utf8.count + 1 } ?? 0)
            + path.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0) + (fragment.map { $0.utf8.count + 1 } ?? 0))
        text += scheme
        text += "://"
        text += host
        if let portText { text += ":"; text += portText }
        text += path
        if let query { text += "?"; text += query }
        if let fragment { text += "#"; text += fragment }
        storage = Storage(scheme: scheme, host: host, port: port, path: path, query: query, fragment: fragment, string: text)
    }

    public static func == (lhs: WebURL, rhs: WebURL) -> Bool {
        lhs.storage === rhs.storage || (lhs.storage.hash == rhs.storage.hash && lhs.string == rhs.string)
    }

    /// Combines the hash of ``string`` computed when the URL was made (equal URLs have equal
    /// text, so equal hashes).
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.hash) }

    /// A 64-bit fingerprint of ``string``, computed when the URL was made: the same number as
    /// ``fingerprint(of:)`` gives for that text. Within one process equal texts have equal
    /// fingerprints; the seed is random per process (Swift's `Hasher`), so fingerprints are
    /// never stored, and a site cannot choose URLs that collide.
    public var fingerprint: UInt64 { UInt64(bitPattern: Int64(storage.hash)) }

    /// The fingerprint (``fingerprint``) of a URL's text, without parsing it.
    /// - Parameter text: a normalised URL's ``string``.
    public static func fingerprint(of text: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(text)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Parses an absolute `http` or `https` URL, or returns `nil` when it is not one.
    ///
    /// Use ``parse(_:maximumLength:)`` to learn why a string was rejected.
    /// - Parameter string: the URL text, as found in a document or typed by a user.
    public init?(_ string: String) {
        guard let url = try? WebURL.parse(string) else { return nil }
        self = url
    }

    /// Parses and normalises an absolute `http` or `https` URL.
    ///
    /// Leading and trailing spaces and C0 control characters are trimmed and tabs and newlines
    /// removed anywhere, as browsers do. In the scheme's slashes and in the path, a backslash
    /// counts as a slash.
    /// - Parameters:
    ///   - string: the URL text.
    ///   - maximumLength: the longest accepted input in UTF-8 bytes.
    /// - Throws: ``ParseError/tooLong(length:limit:)``, ``ParseError/controlCharacter(offset:)``,
    ///   ``ParseError/missingScheme``, ``ParseError/unsupportedScheme(_:)``,
    ///   ``ParseError/userInfoNotSupported(host:)``, ``ParseError/emptyHost``,
    ///   ``ParseError/invalidHost(_:)``, ``ParseError/invalidPort(_:)``.
    public static func parse(
        _ string: String, maximumLength: Int = WebURL.defaultMaximumLength
    ) throws(ParseError) -> WebURL {
        let bytes = try preprocess(string, maximumLength: maximumLength)
        return try parseAbsolute(bytes, maximumLength: maximumLength)
    }

    /// The port that a connection uses: the explicit one or the scheme's default.
    public var effectivePort: Int { port ?? WebURL.defaultPort(forScheme: scheme) }

    /// `scheme://host[:port]`, the port only when it is not the default.
    public var origin: String {
        var text = scheme + "://" + host
        if let port { text += ":" + String(port) }
        return text
    }

    /// The path and query as sent in an HTTP request line (`/a/b?x=1`).
    public var requestTarget: String {
        guard let query else { return path }
        return path + "?" + query
    }

    /// The same URL without its fragment: what is fetched and what identifies a resource.
    public var withoutFragment: WebURL {
        guard fragment != nil else { return self }
        return WebURL(scheme: scheme, host: host, port: port, path: path, query: query, fragment: nil)
    }

    public var description: String { string }

    /// The default port of `http` (80) or `https` (443); 0 for anything else.
    /// - Parameter scheme: a lower-case scheme name.
    public static func defaultPort(forScheme scheme: String) -> Int {
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return 0
        }
    }
}
