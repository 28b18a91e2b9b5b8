/// The character encoding of a document, as far as reference extraction needs to know it.
///
/// Extraction works on bytes. For ASCII-compatible encodings every offset is an offset into
/// the original bytes. UTF-16 documents are transcoded to UTF-8 first (see
/// ``HTMLExtraction/source``).
public enum Charset: Sendable, Hashable {
    /// UTF-8 (also the default when nothing is declared).
    case utf8
    /// windows-1252, which the WHATWG Encoding standard also uses for `iso-8859-1` and `us-ascii`.
    case windows1252
    /// UTF-16 little-endian.
    case utf16LE
    /// UTF-16 big-endian.
    case utf16BE
    /// Another ASCII-compatible encoding, by its lowercased label. Non-ASCII bytes in values
    /// are read as UTF-8 with replacement characters.
    case other(String)

    /// Maps an encoding label (`"ISO-8859-1"`, `"utf8"`, …) to a charset.
    ///
    /// - Parameter label: A label from a header, BOM sniffing or a `<meta>` tag.
    public init(label: String) {
        let l = label.trimmingASCIIWhitespaceAndQuotes().lowercased()
        switch l {
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii", "windows-1252", "cp1252",
            "x-cp1252", "iso_8859-1", "cp819", "ibm819":
            self = .windows1252
        case "utf-16le", "utf-16": self = .utf16LE
        case "utf-16be": self = .utf16BE
        default: self = .other(l)
        }
    }

    /// True for UTF-16, whose bytes are not ASCII-compatible.
    public var isUTF16: Bool { self == .utf16LE || self == .utf16BE }

    private static let c1: [UInt16] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Decodes bytes in this charset (UTF-16 charsets decode as UTF-8: extraction only ever
    /// sees transcoded UTF-16 documents).
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch self {
        case .windows1252:
            var ascii = true
            for b in bytes where b >= 0x80 { ascii = false; break }
            if ascii { return String(decoding: bytes, as: UTF8.self) }
            var s = String.UnicodeScalarView()
            for b in bytes {
                let v: UInt32 = (b >= 0x80 && b <= 0x9F) ? UInt32(Self.c1[Int(b - 0x80)]) : UInt32(b)
                s.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            }
            return String(s)
        default:
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension String {
    /// Trims ASCII whitespace and surrounding quotes (for charset labels).
    func trimmingASCIIWhitespaceAndQuotes() -> String {
        var scalars = Substring(self)
        while let f = scalars.first, f == " " || f == "\t" || f == "\"" || f == "'" || f == "\n" || f == "\r" {
            scalars = scalars.dropFirst()
        }
        while let l = scalars.last, l == " " || l == "\t" || l == "\"" || l == "'" || l == "\n" || l == "\r" {
            scalars = scalars.dropLast()
        }
        return String(scalars)
    }
}
