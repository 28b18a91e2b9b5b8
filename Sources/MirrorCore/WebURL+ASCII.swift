// Character classes of RFC 3986 and the WHATWG URL Standard, on UTF-8 bytes.

extension WebURL {
    /// Byte classification helpers for URL parsing and percent-encoding.
    enum ASCII {
        static func isAlpha(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        static func isAlphanumeric(_ byte: UInt8) -> Bool { isAlpha(byte) || isDigit(byte) }

        static func isUppercase(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }

        static func lowercased(_ byte: UInt8) -> UInt8 { isUppercase(byte) ? byte + 0x20 : byte }

        static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

        static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: return byte - 0x30
            case 0x41...0x46: return byte - 0x41 + 10
            case 0x61...0x66: return byte - 0x61 + 10
            default: return nil
            }
        }

        static func isSlash(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }

        /// `/`, `\`, `?` or `#`: the characters that end an http(s) authority.
        static func endsAuthority(_ byte: UInt8) -> Bool {
            isSlash(byte) || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        }

        /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
        static func isUnreserved(_ byte: UInt8) -> Bool {
            isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
        }

        /// RFC 3986 sub-delims: `!$&'()*+,;=`.
        static func isSubDelimiter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                 UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                 UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }

        /// Allowed raw in a path: pchar and `/`.
        static func isPathCharacter(_ byte: UInt8) -> Bool {
            isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "/")
        }

        /// Allowed raw in a query or fragment: pchar, `/` and `?`.
        static func isQueryCharacter(_ byte: UInt8) -> Bool {
            isPathCharacter(byte) || byte == UInt8(ascii: "?")
        }

        /// WHATWG forbidden host code points, plus every control character and DEL.
        static func isForbiddenInHost(_ byte: UInt8) -> Bool {
            if byte <= 0x20 || byte == 0x7F { return true }
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"),
                 UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"),
                 UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"),
                 UInt8(ascii: "|"):
                return true
            default:
                return false
            }
        }

        /// Appends `%XX` with upper-case hex digits.
        static func appendPercentEncoded(_ byte: UInt8, to out: inout [UInt8]) {
            out.append(UInt8(ascii: "%"))
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }

        /// The upper-case hex digit for a value 0...15.
        static func hexDigit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? 0x30 + nibble : 0x37 + nibble
        }
    }
}
