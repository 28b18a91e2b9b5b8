/// Escapes a replacement URL for the place it is written to, so that the document reads it
/// back as exactly that URL.
///
/// - HTML attribute values: `&` becomes `&amp;`, the attribute's quote an entity; an unquoted
///   value that would need quotes gets double quotes.
/// - `srcset` candidates: whitespace is percent-encoded (it separates candidates), as is a
///   trailing comma.
/// - Meta refresh: the inner quote character is percent-encoded.
/// - CSS: strings escape their quote, `\` and newlines; unquoted `url(…)` escapes
///   parentheses, quotes, whitespace and `\`. `<` is escaped everywhere so that `</style` can
///   never appear. CSS in a `style` attribute is then escaped for the attribute.
/// - Non-ASCII characters in documents that are not UTF-8 become character references
///   (`&#233;`) or CSS hex escapes.
public enum URLEncoder {
    /// The bytes to splice in place of a reference's span.
    ///
    /// - Parameters:
    ///   - url: The replacement URL.
    ///   - syntax: Where the reference sits (``Reference/syntax``).
    ///   - charset: The document's charset; non-ASCII is escaped unless it is UTF-8.
    public static func encode(_ url: String, for syntax: Reference.Syntax, charset: Charset = .utf8) -> [UInt8] {
        let utf8 = charset == .utf8 || charset.isUTF16
        switch syntax {
        case .htmlAttribute(let quote):
            if quote == .none, needsQuotes(url) {
                return [0x22] + attribute(url.unicodeScalars, quote: .double, utf8: utf8) + [0x22]
            }
            return attribute(url.unicodeScalars, quote: quote, utf8: utf8)
        case .srcsetCandidate(let attributeQuote):
            var scalars = percentEncode(url, { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
            if scalars.last == ",", !scalars.isEmpty { scalars.removeLast(); scalars += Array("%2C".unicodeScalars) }
            if scalars.first == ",", !scalars.isEmpty { scalars.removeFirst(); scalars = Array("%2C".unicodeScalars) + scalars }
            return attribute(scalars, quote: attributeQuote, utf8: utf8)
        case .metaRefresh(let attributeQuote, let urlQuote):
            let scalars = percentEncode(url, { c in
                (urlQuote == .single && c == "'") || (urlQuote == .double && c == "\"")
                    || (urlQuote == .none && (c == "'" || c == "\""))
            })
            return attribute(scalars, quote: attributeQuote, utf8: utf8)
        case .css(let quote, let attributeQuote):
            let css = cssEscape(url, quote: quote, utf8: utf8 || attributeQuote != nil)
            guard let attributeQuote else { return Array(String(String.UnicodeScalarView(css)).utf8) }
            return attribute(css, quote: attributeQuote, utf8: utf8)
        }
    }

    /// Appends ``encode(_:for:charset:)`` of `url` to `out`. A URL of plain ASCII (the usual
    /// relative link) reads the same in every syntax, so its bytes are appended as they are.
    public static func append(_ url: String, for syntax: Reference.Syntax, charset: Charset = .utf8, to out: inout [UInt8]) {
        let utf8 = url.utf8
        var plain = !utf8.isEmpty && utf8.allSatisfy(isPlain)
        // A srcset candidate must not start or end with a comma (read as a separator).
        if plain, case .srcsetCandidate = syntax, utf8.first == UInt8(ascii: ",") || utf8.last == UInt8(ascii: ",") {
            plain = false
        }
        if plain { out.append(contentsOf: utf8) } else { out.append(contentsOf: encode(url, for: syntax, charset: charset)) }
    }

    /// A byte that no syntax escapes: printable ASCII other than quotes, `&`, `<`, `>`, `=`,
    /// backquote, `\` and parentheses.
    private static func isPlain(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "="), UInt8(ascii: "`"), UInt8(ascii: "\\"), UInt8(ascii: "("), UInt8(ascii: ")"):
            return false
        default:
            return true
        }
    }

    private static func needsQuotes(_ url: String) -> Bool {
        url.isEmpty || url.unicodeScalars.contains { c in
            c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" || c == "\"" || c == "'" || c == "="
                || c == "<" || c == ">" || c == "`"
        }
    }

    private static func percentEncode(_ url: String, _ predicate: (Unicode.Scalar) -> Bool) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        for c in url.unicodeScalars {
            if predicate(c) {
                let v = Int(c.value)
                out += ["%", hex[v >> 4], hex[v & 15]]
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Escapes for an HTML attribute value with the given quoting.
    private static func attribute<Scalars: Collection<Unicode.Scalar>>(
        _ scalars: Scalars, quote: Reference.Quote, utf8: Bool
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(scalars.count + 8)
        for c in scalars {
            switch c {
            case "&": out.append(contentsOf: "&amp;".utf8)
            case "\"" where quote != .single: out.append(contentsOf: "&quot;".utf8)
            case "'" where quote != .double: out.append(contentsOf: "&#39;".utf8)
            case " ", "\t", "\n", "\r", "\u{0C}", "<", ">", "=", "`":
                // `where` would bind to the last pattern only, so test the quoting here.
                if quote == .none { out.append(contentsOf: "&#\(c.value);".utf8) } else { out.append(UInt8(c.value)) }
            default:
                if c.isASCII {
                    out.append(UInt8(c.value))
                } else if utf8, let encoded = UTF8.encode(c) {
                    out.append(contentsOf: encoded)
                } else {
                    out.append(contentsOf: "&#\(c.value);".utf8)
                }
            }
        }
        return out
    }

    /// Escapes for a CSS string (`quote` is its quote) or an unquoted `url(…)` (`quote == .none`).
    private static func cssEscape(_ url: String, quote: Reference.Quote, utf8: Bool) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        func hex(_ c: Unicode.Scalar) { out += Array("\\\(String(c.value, radix: 16)) ".unicodeScalars) }
        for c in url.unicodeScalars {
            switch c {
            case "\\": out += ["\\", "\\"]
            case "\n", "\r", "\u{0C}", "<": hex(c)
            case "\"" where quote != .single: out += ["\\", "\""]
            case "'" where quote != .double: out += ["\\", "'"]
            case "(", ")":
                if quote == .none { out += ["\\", c] } else { out.append(c) }
            case " ", "\t":
                if quote == .none { hex(c) } else { out.append(c) }
            default:
                if c.value < 0x20 || c.value == 0x7F || (c.value >= 0x80 && !utf8) { hex(c) } else { out.append(c) }
            }
        }
        return out
    }
}
