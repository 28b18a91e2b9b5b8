import Foundation

/// A PKCS#11 URI (RFC 7512) naming a token object: `pkcs11:token=Mirror;object=client-key`.
///
/// Only what mtls-mirror needs to find a token and a key or certificate on it is kept: the
/// token attributes (`token`, `manufacturer`, `model`, `serial`, `slot-id`), the object
/// attributes (`object`, `id`, `type`), and the query attributes `module-path` and
/// `module-name`. Values are percent-decoded (`id=%01%02` is the two bytes 1 and 2).
///
/// A PIN never comes from the URI: `pin-value` is refused (it would sit in the process list and
/// in config files), and so is `pin-source`; the PIN comes from `--pass-env`, `--pass-file`,
/// the config's `password` reference or a prompt.
public struct PKCS11URI: Sendable, Equatable, CustomStringConvertible {
    /// The token label (`token=`), matched exactly against the token's label.
    public var token: String?
    /// The token manufacturer (`manufacturer=`).
    public var manufacturer: String?
    /// The token model (`model=`).
    public var model: String?
    /// The token serial number (`serial=`).
    public var serial: String?
    /// The slot identifier (`slot-id=`, a decimal number).
    public var slotID: UInt?
    /// The object label (`object=`), matched exactly against the key's or certificate's label.
    public var object: String?
    /// The object identifier (`id=`), raw bytes.
    public var id: [UInt8]?
    /// The object type (`type=`): `private`, `cert`, `public`, …
    public var type: String?
    /// The PKCS#11 module to load (`?module-path=/usr/lib/…/libsofthsm2.so`).
    public var modulePath: String?
    /// The PKCS#11 module's name (`?module-name=softhsm2`), looked up in p11-kit's module folder.
    public var moduleName: String?
    /// The text as given.
    public let text: String

    public var description: String { text }

    /// Whether `text` is a PKCS#11 URI rather than a file path.
    ///
    /// - Parameter text: a `--cert`/`--key` value or a config's `cert`/`key`.
    public static func isURI(_ text: String) -> Bool {
        text.count >= 7 && text.prefix(7).lowercased() == "pkcs11:"
    }

    /// Parses a PKCS#11 URI.
    ///
    /// Unknown path attributes with a vendor prefix (`x-…`) and `library-*` attributes are
    /// accepted and ignored; other unknown attributes are errors, so that a typo does not
    /// silently select another key.
    ///
    /// - Parameter text: the URI.
    /// - Throws: ``TokenError/invalidURI(uri:reason:)`` for malformed text or an unknown
    ///   attribute, ``TokenError/pinInURI(uri:)`` for `pin-value` or `pin-source`.
    public init(parsing text: String) throws(TokenError) {
        self.text = text
        guard Self.isURI(text) else { throw .invalidURI(uri: text, reason: "it does not start with \"pkcs11:\"") }
        let body = text.dropFirst(7)
        let parts = body.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let query = parts.count > 1 ? String(parts[1]) : ""
        for attribute in path.split(separator: ";", omittingEmptySubsequences: true) {
            let (name, value) = try Self.split(attribute, in: text)
            switch name {
            case "token": token = try Self.decodeText(value, in: text)
            case "manufacturer": manufacturer = try Self.decodeText(value, in: text)
            case "model": model = try Self.decodeText(value, in: text)
            case "serial": serial = try Self.decodeText(value, in: text)
            case "slot-id":
                guard let number = UInt(try Self.decodeText(value, in: text)) else {
                    throw .invalidURI(uri: text, reason: "slot-id must be a decimal number")
                }
                slotID = number
            case "object": object = try Self.decodeText(value, in: text)
            case "id": id = try Self.decode(value, in: text)
            case "type": type = try Self.decodeText(value, in: text).lowercased()
            case "pin-value", "pin-source": throw .pinInURI(uri: Self.redacted(text))
            case "slot-description", "slot-manufacturer", "library-description", "library-manufacturer", "library-version":
                break
            default:
                if name.hasPrefix("x-") { break }
                throw .invalidURI(uri: text, reason: "unknown attribute \"\(name)\"")
            }
        }
        for attribute in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value) = try Self.split(attribute, in: text)
            switch name {
            case "module-path": modulePath = try Self.decodeText(value, in: text)
            case "module-name": moduleName = try Self.decodeText(value, in: text)
            case "pin-value", "pin-source": throw .pinInURI(uri: Self.redacted(text))
            default:
                if name.hasPrefix("x-") { break }
                throw .invalidURI(uri: text, reason: "unknown query attribute \"\(name)\"")
            }
        }
        if object == nil && id == nil {
            throw .invalidURI(uri: text, reason: "it names no object: add object=LABEL or id=%HH")
        }
    }

    /// The object identifier as `%01%02` text, for messages and `inspect`.
    public var idText: String? {
        id.map { bytes in bytes.map { "%" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined() }
    }

    /// A short description of the object: `object 'client-key' (id %01)`.
    public var objectDescription: String {
        var parts: [String] = []
        if let object { parts.append("object '\(object)'") }
        if let idText { parts.append("id \(idText)") }
        return parts.joined(separator: ", ")
    }

    /// A short description of the token selection: `token 'Mirror'`.
    public var tokenDescription: String {
        var parts: [String] = []
        if let token { parts.append("token '\(token)'") }
        if let serial { parts.append("serial \(serial)") }
        if let manufacturer { parts.append("manufacturer '\(manufacturer)'") }
        if let model { parts.append("model '\(model)'") }
        if let slotID { parts.append("slot \(slotID)") }
        return parts.isEmpty ? "any token" : parts.joined(separator: ", ")
    }

    private static func split(_ attribute: Substring, in text: String) throws(TokenError) -> (String, Substring) {
        guard let equals = attribute.firstIndex(of: "=") else {
            throw .invalidURI(uri: text, reason: "attribute \"\(attribute)\" has no value (name=value)")
        }
        return (attribute[..<equals].lowercased(), attribute[attribute.index(after: equals)...])
    }

    private static func decodeText(_ value: Substring, in text: String) throws(TokenError) -> String {
        let bytes = try decode(value, in: text)
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidURI(uri: text, reason: "a value is not UTF-8 after percent-decoding")
        }
        return decoded
    }

    /// Percent-decodes `value` (RFC 3986 §2.1).
    private static func decode(_ value: Substring, in text: String) throws(TokenError) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .invalidURI(uri: text, reason: "a '%' is not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The URI with any PIN value replaced, for error messages.
    static func redacted(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "pin-value=", options: .caseInsensitive) {
            result += rest[..<range.upperBound] + "…"
            rest = rest[range.upperBound...]
            if let end = rest.firstIndex(where: { $0 == ";" || $0 == "&" || $0 == "?" }) { rest = rest[end...] } else { rest = "" }
        }
        return result + rest
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
