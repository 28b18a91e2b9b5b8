/// The fixed table between media types and file extensions that path mapping uses.
///
/// The table is built in (not read from `/etc/mime.types`) so that the same URL maps to the
/// same file name on every machine.
public enum MediaTypes {
    /// Media type (lower case, without parameters) → the extension written for it.
    static let extensionByType: [String: String] = [
        "text/html": "html", "application/xhtml+xml": "xhtml", "text/css": "css",
        "text/javascript": "js", "application/javascript": "js", "application/x-javascript": "js",
        "application/ecmascript": "js", "text/ecmascript": "js", "application/json": "json",
        "application/ld+json": "json", "application/manifest+json": "webmanifest",
        "text/plain": "txt", "text/csv": "csv", "text/markdown": "md", "text/xml": "xml",
        "application/xml": "xml", "application/rss+xml": "rss", "application/atom+xml": "atom",
        "text/calendar": "ics", "image/png": "png", "image/apng": "png", "image/jpeg": "jpg",
        "image/pjpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/avif": "avif",
        "image/svg+xml": "svg", "image/bmp": "bmp", "image/tiff": "tif", "image/x-icon": "ico",
        "image/vnd.microsoft.icon": "ico", "font/woff": "woff", "font/woff2": "woff2",
        "application/font-woff": "woff", "font/ttf": "ttf", "font/otf": "otf",
        "application/vnd.ms-fontobject": "eot", "application/pdf": "pdf", "application/zip": "zip",
        "application/gzip": "gz", "application/x-tar": "tar", "application/wasm": "wasm",
        "application/octet-stream": "bin", "audio/mpeg": "mp3", "audio/ogg": "ogg",
        "audio/wav": "wav", "audio/webm": "weba", "video/mp4": "mp4", "video/webm": "webm",
        "video/ogg": "ogv", "text/vtt": "vtt", "application/msword": "doc",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
        "application/vnd.ms-excel": "xls",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
        "application/vnd.ms-powerpoint": "ppt",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    ]

    /// Extensions that a URL may carry and keep as they are (compared lower-cased).
    static let knownExtensions: Set<String> = Set(extensionByType.values).union([
        "htm", "shtml", "jpeg", "jpe", "mjs", "cjs", "map", "jsonld", "tiff", "svgz", "mp4",
        "m4a", "m4v", "mov", "flac", "opus", "txt", "7z", "bz2", "xz", "tgz", "rar", "epub",
        "odt", "ods", "odp", "rtf", "xsl", "xslt", "dtd", "jfif", "cur", "apk", "dmg", "exe",
        "msi", "deb", "rpm", "iso", "img", "sig", "asc", "pem", "crt", "cer",
    ])

    /// The extension for a `Content-Type` header value, or `nil` when the type is unknown.
    ///
    /// Parameters (`; charset=…`) and case are ignored. Unknown `text/*` types give `txt`,
    /// unknown `…+xml` and `…+json` types give `xml` and `json`.
    /// - Parameter contentType: the header value, for example `text/html; charset=utf-8`.
    public static func fileExtension(forContentType contentType: String) -> String? {
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map { $0.trimmingASCIIWhitespace().lowercased() } ?? ""
        if let known = extensionByType[essence] { return known }
        if essence.hasSuffix("+xml") { return "xml" }
        if essence.hasSuffix("+json") { return "json" }
        if essence.hasPrefix("text/") { return "txt" }
        return nil
    }

    /// Whether `ext` (without its dot, any case) is an extension the mapper keeps as it is.
    /// - Parameter ext: the extension text.
    public static func isKnownExtension(_ ext: some StringProtocol) -> Bool {
        knownExtensions.contains(ext.lowercased())
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingASCIIWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
