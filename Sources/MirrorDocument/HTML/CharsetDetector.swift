/// Finds an HTML document's character encoding: byte-order mark, then the caller's
/// `Content-Type` header parameter, then a `<meta charset>` or `<meta http-equiv=Content-Type>`
/// in the first 1024 bytes, then UTF-8 (WHATWG HTML §13.2.3 "determining the character encoding",
/// simplified: no frequency sniffing).
public enum CharsetDetector {
    /// Where the detected charset came from.
    public enum Source: Sendable, Hashable {
        /// A byte-order mark; the mark's length is `bomLength`.
        case byteOrderMark(bomLength: Int)
        /// The HTTP `Content-Type` header's `charset` parameter.
        case header
        /// A `<meta>` tag in the document.
        case meta
        /// Nothing was declared.
        case defaulted
    }

    /// Detects the charset of an HTML document.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - contentType: The HTTP `Content-Type` header value, if any (e.g. `text/html; charset=iso-8859-1`).
    /// - Returns: The charset and where it came from.
    public static func detect(_ bytes: UnsafeBufferPointer<UInt8>, contentType: String?) -> (Charset, Source) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return (.utf8, .byteOrderMark(bomLength: 3))
        }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, .byteOrderMark(bomLength: 2)) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, .byteOrderMark(bomLength: 2)) }
        if let contentType, let label = charsetParameter(contentType) { return (Charset(label: label), .header) }
        if let label = prescan(bytes) {
            var charset = Charset(label: label)
            // A document read as ASCII cannot really be UTF-16 (WHATWG: treat as UTF-8).
            if charset.isUTF16 { charset = .utf8 }
            return (charset, .meta)
        }
        return (.utf8, .defaulted)
    }

    /// The `charset=` parameter of a Content-Type value.
    ///
    /// - Parameter contentType: A header value such as `text/html; charset="UTF-8"`.
    public static func charsetParameter(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if pair[0].trimmingCharacters(in: " \t").lowercased() == "charset" {
                let value = String(pair[1]).trimmingASCIIWhitespaceAndQuotes()
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// Looks for a charset declaration in `<meta>` tags among the first 1024 bytes.
    static func prescan(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let limit = min(bytes.count, 1024)
        var i = 0
        while i + 5 < limit {
            guard bytes[i] == 0x3C else { i += 1; continue }
            if bytes[i + 1] == 0x21, bytes[i + 2] == 0x2D, bytes[i + 3] == 0x2D {
                i = skipComment(bytes, from: i + 4)
                continue
            }
            guard bytes[i + 1] | 0x20 == 0x6D, let tag = HTMLTagLexer.lex(bytes, at: i) else { i += 1; continue }
            if tag.name == "meta" {
                if let a = tag.attribute("charset") {
                    return HTMLEntities.decode(bytes, a.valueSpan, charset: .utf8)
                }
                if let e = tag.attribute("http-equiv"), let c = tag.attribute("content"),
                    HTMLEntities.decode(bytes, e.valueSpan, charset: .utf8).lowercased() == "content-type",
                    let label = charsetParameter(HTMLEntities.decode(bytes, c.valueSpan, charset: .utf8))
                {
                    return label
                }
            }
            i = max(tag.end, i + 1)
        }
        return nil
    }

    private static func skipComment(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from
        while i + 2 < bytes.count {
            if bytes[i] == 0x2D, bytes[i + 1] == 0x2D, bytes[i + 2] == 0x3E { return i + 3 }
            i += 1
        }
        return bytes.count
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
