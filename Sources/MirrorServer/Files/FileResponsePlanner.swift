/// The status, headers and body range for serving a file: the pure half of the responder.
public struct FileResponsePlan: Sendable, Equatable {
    /// 200, 206, 304 or 416.
    public var status: Int
    /// The representation headers (Content-Type, Content-Length, ETag, …).
    public var headers: HTTPHeaders
    /// The bytes of the file to send; `nil` for no body (HEAD, 304, 416).
    public var body: Range<Int64>?
}

/// Decides how to answer a GET or HEAD for a file, from the request headers and the file's
/// metadata (RFC 9110 §13 conditional requests, §14 ranges).
///
/// Order of evaluation (RFC 9110 §13.2.2): `If-None-Match` (weak comparison, lists, `*`)
/// gives 304; only when it is absent, `If-Modified-Since` gives 304 for an unmodified file.
/// Then, for GET only, `Range` (one range; see ``ByteRangeRequest``) gives 206 or 416, unless
/// an `If-Range` validator does not match (an entity tag compared strongly, or a date equal
/// to `Last-Modified`), in which case the whole file is sent. `If-Match` and
/// `If-Unmodified-Since` are not evaluated (the mirror is read-only).
///
/// Validators: the strong ETag is made of inode, size and modification time
/// (``FileMetadata/entityTag``), which changes whenever a refresh replaces the file; the
/// manifest's SHA-256 is not used because rewriting may change the bytes after it was taken.
/// `Cache-Control: no-cache` makes browsers revalidate, so a refresh is seen at once.
public enum FileResponsePlanner {
    /// Plans the response.
    /// - Parameters:
    ///   - method: `GET` or `HEAD`.
    ///   - requestHeaders: the request's headers.
    ///   - metadata: the file's size, time and identity.
    ///   - contentType: the `Content-Type` to send.
    public static func plan(
        method: String, requestHeaders: HTTPHeaders, metadata: FileMetadata, contentType: String
    ) -> FileResponsePlan {
        plan(method: method, requestHeaders: requestHeaders, metadata: metadata,
             validators: FileValidators(metadata), contentType: contentType)
    }

    /// Plans the response with validators already formatted (a file served many times keeps
    /// them, see ``OpenFile/validators``).
    /// - Parameters:
    ///   - method: `GET` or `HEAD`.
    ///   - requestHeaders: the request's headers.
    ///   - metadata: the file's size, time and identity.
    ///   - validators: `metadata`'s entity tag and `Last-Modified` text.
    ///   - contentType: the `Content-Type` to send.
    public static func plan(
        method: String, requestHeaders: HTTPHeaders, metadata: FileMetadata, validators: FileValidators, contentType: String
    ) -> FileResponsePlan {
        let etag = validators.entityTag
        let lastModified = validators.lastModified
        var headers = HTTPHeaders([
            ("ETag", etag), ("Last-Modified", lastModified), ("Cache-Control", "no-cache"),
        ])
        if isNotModified(requestHeaders, etag: etag, modified: metadata.modifiedSeconds) {
            return FileResponsePlan(status: 304, headers: headers, body: nil)
        }
        headers.add("Content-Type", contentType)
        headers.add("Accept-Ranges", "bytes")
        let length = metadata.size
        var range = ByteRangeRequest.whole
        if method == "GET", let value = requestHeaders.first("Range"),
           ifRangeAllows(requestHeaders.first("If-Range"), etag: etag, modified: metadata.modifiedSeconds) {
            range = ByteRangeRequest.parse(value, length: length)
        }
        let sendsBody = method == "GET"
        switch range {
        case .whole:
            headers.add("Content-Length", String(length))
            return FileResponsePlan(status: 200, headers: headers, body: sendsBody ? 0..<length : nil)
        case .partial(let bytes):
            headers.add("Content-Length", String(bytes.count))
            headers.add("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(length)")
            return FileResponsePlan(status: 206, headers: headers, body: bytes)
        case .unsatisfiable:
            headers.add("Content-Length", "0")
            headers.add("Content-Range", "bytes */\(length)")
            return FileResponsePlan(status: 416, headers: headers, body: nil)
        }
    }

    static func isNotModified(_ request: HTTPHeaders, etag: String, modified: Int64) -> Bool {
        let noneMatch = request.values("If-None-Match")
        if !noneMatch.isEmpty {
            let tags = noneMatch.flatMap(EntityTag.list)
            return tags.contains { $0 == "*" || EntityTag.weakMatch($0, etag) }
        }
        if let since = request.first("If-Modified-Since"), let date = HTTPDate.parse(since) {
            return modified <= date
        }
        return false
    }

    static func ifRangeAllows(_ value: String?, etag: String, modified: Int64) -> Bool {
        guard let value = value?.trimmingOWS(), !value.isEmpty else { return true }
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            return EntityTag.strongMatch(String(value), etag)
        }
        return HTTPDate.parse(String(value)) == modified
    }
}

/// A file's validators as sent: its strong entity tag and its `Last-Modified` date.
public struct FileValidators: Sendable, Equatable {
    /// ``FileMetadata/entityTag``.
    public let entityTag: String
    /// ``FileMetadata/modifiedSeconds`` as an HTTP-date.
    public let lastModified: String

    /// Formats the validators of `metadata`.
    /// - Parameter metadata: the file's facts.
    public init(_ metadata: FileMetadata) {
        entityTag = metadata.entityTag
        lastModified = HTTPDate.format(metadata.modifiedSeconds)
    }
}
