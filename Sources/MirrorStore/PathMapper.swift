import MirrorCore

/// Maps a normalised URL (and its response's `Content-Type`) to a file path inside a site's
/// folder: readable where it can be, collision-free and safe always.
///
/// The result is a relative path of `/`-separated components. No component is empty, `.` or
/// `..`, none contains `/`, `\`, NUL, a control character or a character that Windows or macOS
/// refuse (`: * ? " < > |`), none ends with a dot or space, and none is a Windows device name.
/// The mapping depends only on its inputs (no table of existing files), so it is the same on
/// every run and every machine.
///
/// ## The scheme
/// Names are built from the URL's normalised, percent-encoded text, which is ASCII.
/// - `%XX` sequences of the URL stay as they are: `/a%20b.pdf` → `a%20b.pdf`.
/// - `^XX` (upper-case hex) escapes a character that may not appear raw: `:` `*` `@` and, in
///   queries, `/` and `?`; a trailing dot; one letter of a Windows device name (`con` →
///   `co^6E`); the first `_` of the reserved top-level names `_hosts` and `_mirror`; the last
///   dot of a directory name ending in a known extension (`a.css/` → `a^2Ecss/`).
///   A raw `^` never occurs in a normalised URL, so escapes can never be confused with text.
/// - Files: `/` and `/docs/` → `index.html` (the extension follows the Content-Type); a last
///   segment with a known extension and no query keeps its name (`/a/b.css` → `a/b.css`).
///   Every other file name is `<segment>@<query>.<ext>`: `/page` → `page@.html`,
///   `/search?q=a&b=c` → `search@q=a&b=c.html`, `/s.css?v=2` → `s.css@v=2.css`, `/?p=2` →
///   `@p=2.html`. The raw `@` marks a name the mapper completed, so `/page` and `/page.html`
///   never collide, and no directory name can contain it, so a file never clashes with a
///   directory (`page@.html` beside `page/`).
/// - Case: a name whose URL text has upper-case letters (outside `%XX`) gets `^h` and 8 hex
///   digits of the SHA-256 of that text (before the extension for files), so `A.png` and
///   `a.png` stay apart on case-insensitive file systems.
/// - Length: a component longer than ``maximumComponentLength`` bytes keeps a prefix and gets
///   `^t` + 16 hex digits of the SHA-256 of the full name (plus the extension for files).
///   Directories deeper than ``maximumDirectoryDepth``, or paths longer than
///   ``maximumPathLength``, keep their leading directories and fold the rest into one `^d` +
///   16-hex-digit directory.
/// - An empty directory segment (`/a//b`) becomes `^`.
/// - Hosts other than the primary origin's go under `_hosts/<host>`, with `@<scheme>-<port>`
///   appended unless the origin is https on port 443: `_hosts/cdn.example.com/x.js`,
///   `_hosts/cdn.example.com@https-8443/x.js`, `_hosts/a.example@http-80/`.
public struct PathMapper: Sendable {
    /// The origin whose files live at the top of the site folder.
    public let primaryOrigin: WebURL
    /// Longest file or directory name written, in bytes.
    public let maximumComponentLength: Int
    /// Most directory levels below the site (or host) folder before the rest is folded.
    public let maximumDirectoryDepth: Int
    /// Longest relative path returned, in bytes.
    public let maximumPathLength: Int

    /// The folder under which other hosts' files are stored.
    public static let hostsFolderName = "_hosts"
    /// A top-level folder left free for the store's own files (manifest, state).
    public static let storeFolderName = "_mirror"

    /// Creates a mapper for a site.
    /// - Parameters:
    ///   - primaryOrigin: any URL of the site; only its scheme, host and port are used.
    ///   - maximumComponentLength: longest name in bytes (200 leaves room below the usual 255).
    ///   - maximumDirectoryDepth: deepest directory nesting kept as it is.
    ///   - maximumPathLength: longest relative path in bytes.
    public init(
        primaryOrigin: WebURL, maximumComponentLength: Int = 200, maximumDirectoryDepth: Int = 32,
        maximumPathLength: Int = 1024
    ) {
        self.primaryOrigin = primaryOrigin
        self.maximumComponentLength = max(maximumComponentLength, 64)
        self.maximumDirectoryDepth = max(maximumDirectoryDepth, 2)
        self.maximumPathLength = max(maximumPathLength, 3 * self.maximumComponentLength + 64)
    }

    /// The relative path of the file that stores `url`'s response.
    ///
    /// The fragment is ignored. See the type's documentation for the scheme.
    /// - Parameters:
    ///   - url: the normalised URL that was fetched.
    ///   - contentType: the response's `Content-Type` header, `nil` when not known.
    public func relativePath(for url: WebURL, contentType: String?) -> String {
        directPath(for: url, contentType: contentType) ?? generalPath(for: url, contentType: contentType)
    }

    /// ``relativePath(for:contentType:)`` by the full scheme, name by name.
    func generalPath(for url: WebURL, contentType: String?) -> String {
        let (prefix, directories, last) = folderComponents(for: url)
        let file = fileName(lastSegment: last, query: url.query, contentType: contentType)
        let components = prefix + fold(directories, prefix: prefix, file: file) + [file]
        let path = components.joined(separator: "/")
        guard PathMapper.isSafeRelativePath(path) else {
            // Unreachable by construction; a safe fallback keeps the promise regardless.
            return "^x" + PathMapper.hashHex(Array(url.withoutFragment.string.utf8), digits: 32) + ".bin"
        }
        return path
    }

    /// The parts of a URL's local path before folding: the `_hosts/…` prefix (empty for the
    /// primary origin), one encoded name per path directory, and the raw last path segment.
    private func folderComponents(for url: WebURL) -> (prefix: [String], directories: [String], last: [UInt8]) {
        let isPrimary = url.scheme == primaryOrigin.scheme && url.host == primaryOrigin.host
            && url.effectivePort == primaryOrigin.effectivePort
        let prefix = isPrimary ? [] : [PathMapper.hostsFolderName, hostFolderName(for: url)]
        let segments = url.path.utf8.dropFirst().split(
            separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var directories: [String] = []
        for (position, segment) in segments.dropLast().enumerated() {
            directories.append(directoryName(Array(segment), isTopLevel: isPrimary && position == 0))
        }
        return (prefix, directories, segments.last.map(Array.init) ?? [])
    }

    /// Whether `path` is a non-empty relative path of safe components: none empty, `.` or
    /// `..`, and none containing NUL, `\` or a control character. It does not start with `/`.
    /// - Parameter path: a relative path as returned by ``relativePath(for:contentType:)``.
    public static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        // One pass over the bytes, a component at a time (no split into an array).
        var length = 0  // of the current component
        var dots = 0  // leading dots of the current component
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && length <= 2) { return false }
                length = 0
                dots = 0
                continue
            }
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return false }
            if byte == UInt8(ascii: "."), dots == length { dots += 1 }
            length += 1
        }
        return !(length == 0 || (dots == length && length <= 2))
    }

    /// The `_hosts/…` folder name for a URL's origin.
    func hostFolderName(for url: WebURL) -> String {
        var name = FileNameEncoding.encodeSegment(Array(url.host.utf8)[...])
        FileNameEncoding.escapeDeviceName(&name)
        if !(url.scheme == "https" && url.effectivePort == 443) {
            name += Array("@\(url.scheme)-\(url.effectivePort)".utf8)
        }
        return FileNameEncoding.shorten(name, extensionLength: 0, limit: maximumComponentLength)
    }

    /// Keeps the directory list within the depth and total length limits, folding the rest
    /// into one hashed directory.
    func fold(_ directories: [String], prefix: [String], file: String) -> [String] {
        func length(_ parts: [String]) -> Int { parts.reduce(0) { $0 + $1.utf8.count + 1 } }
        let fixed = length(prefix) + file.utf8.count
        if directories.count <= maximumDirectoryDepth, fixed + length(directories) <= maximumPathLength {
            return directories
        }
        let foldedLength = 2 + 16 + 1
        var keep = min(directories.count, maximumDirectoryDepth - 1)
        while keep > 0, fixed + length(Array(directories[..<keep])) + foldedLength > maximumPathLength {
            keep -= 1
        }
        let rest = directories[keep...].joined(separator: "/")
        let folded = "^d" + PathMapper.hashHex(Array(rest.utf8), digits: 16)
        return Array(directories[..<keep]) + [folded]
    }

    /// Lower-case hex of the first `digits / 2` bytes of SHA-256 of `bytes`.
    static func hashHex(_ bytes: [UInt8], digits: Int) -> String {
        String(SHA256Digest.hex(bytes).prefix(digits))
    }
}
