import Foundation

/// File extension → media type, from `/etc/mime.types` with a small built-in fallback.
///
/// Used when the manifest recorded no type for a file. The system table is parsed once per
/// process (``system``); the built-in entries fill the gaps (and win for `html`, `js`, `css`,
/// whose system entries differ between distributions). HTML gets `; charset=utf-8`.
public struct MIMETypes: Sendable {
    private var byExtension: [String: String]

    /// The type for unknown extensions.
    public static let fallback = "application/octet-stream"

    static let builtIn: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "xhtml": "application/xhtml+xml",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "json": "application/json",
        "txt": "text/plain", "xml": "application/xml", "svg": "image/svg+xml", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif",
        "ico": "image/x-icon", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "wasm": "application/wasm", "mp4": "video/mp4", "webm": "video/webm",
        "mp3": "audio/mpeg", "csv": "text/csv", "zip": "application/zip", "webmanifest": "application/manifest+json",
    ]

    /// The table parsed from `/etc/mime.types` (once), over the built-in entries.
    public static let system: MIMETypes = {
        let text = (try? String(contentsOfFile: "/etc/mime.types", encoding: .utf8)) ?? ""
        return MIMETypes(mimeTypesFile: text)
    }()

    /// Parses the text of a `mime.types` file: `type ext ext…` per line, `#` comments.
    /// - Parameter mimeTypesFile: the file's contents; entries from the built-in table win.
    public init(mimeTypesFile: String) {
        var table: [String: String] = [:]
        for line in mimeTypesFile.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0].contains("/") else { continue }
            for ext in words.dropFirst() { table[ext.lowercased()] = String(words[0]) }
        }
        table.merge(Self.builtIn) { _, builtIn in builtIn }
        byExtension = table
    }

    /// The media type for a file name, by its extension (case-insensitive).
    /// - Parameter fileName: a file name or path.
    public func type(forFileName fileName: String) -> String {
        let bytes = fileName.utf8
        var nameStart = bytes.startIndex
        var dot: String.Index?
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "/"): nameStart = bytes.index(after: index); dot = nil
            case UInt8(ascii: "."): dot = index
            default: break
            }
            bytes.formIndex(after: &index)
        }
        guard let dot, dot != nameStart else { return Self.fallback }
        let ext = fileName[fileName.index(after: dot)...]
        let isLower = ext.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        return byExtension[isLower ? String(ext) : ext.lowercased()] ?? Self.fallback
    }
}
