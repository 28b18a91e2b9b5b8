import CLibP11
import CMirrorShims
import COpenSSL

/// Finds the slot, key and certificate a ``PKCS11URI`` names, among what libp11 enumerated.
///
/// Every attribute the URI gives must match exactly (RFC 7512 §2.3: an absent attribute
/// matches anything); when several tokens or keys match, the first one in the module's order
/// is used.
enum TokenSelection {
    /// The first slot whose token matches the URI's token attributes.
    ///
    /// - Throws: ``TokenError/tokenAbsent(selection:module:seen:)`` listing the tokens present.
    static func slot(in context: PKCS11Context, matching uri: PKCS11URI) throws(TokenError) -> UnsafeMutablePointer<PKCS11_SLOT> {
        let slots = context.tokenSlots
        for slot in slots {
            guard let token = slot.pointee.token?.pointee else { continue }
            if let wanted = uri.token, text(token.label) != wanted { continue }
            if let wanted = uri.manufacturer, text(token.manufacturer) != wanted { continue }
            if let wanted = uri.model, text(token.model) != wanted { continue }
            if let wanted = uri.serial, text(token.serialnr) != wanted { continue }
            if let wanted = uri.slotID, CMirrorShims_PKCS11_get_slotid_from_slot(slot) != wanted { continue }
            return slot
        }
        let seen = slots.compactMap { $0.pointee.token.map { "'\(text($0.pointee.label))'" } }
        throw .tokenAbsent(selection: uri.tokenDescription, module: context.modulePath, seen: seen)
    }

    /// The first private key on `token` whose label and id match.
    ///
    /// - Throws: ``TokenError/keyAbsent(token:object:)``.
    static func key(
        on token: UnsafeMutablePointer<PKCS11_TOKEN>, matching uri: PKCS11URI, tokenLabel: String
    ) throws(TokenError) -> UnsafeMutablePointer<PKCS11_KEY> {
        var keys: UnsafeMutablePointer<PKCS11_KEY>?
        var count: UInt32 = 0
        guard CMirrorShims_PKCS11_enumerate_keys(token, &keys, &count) == 0 else {
            throw .pkcs11(operation: "PKCS11_enumerate_keys", detail: OpenSSLErrorQueue.drainedText())
        }
        if let keys {
            for index in 0..<Int(count) {
                let key = keys + index
                if matches(label: key.pointee.label, id: key.pointee.id, length: key.pointee.id_len, uri: uri) { return key }
            }
        }
        throw .keyAbsent(token: tokenLabel, object: uri.objectDescription)
    }

    /// The first certificate on `token` whose label and id match, and the issuers of it that
    /// are stored on the token too, in chain order (self-signed roots left out: servers have them).
    ///
    /// - Throws: ``TokenError/certificateAbsent(token:object:)``.
    static func certificate(
        on token: UnsafeMutablePointer<PKCS11_TOKEN>, matching uri: PKCS11URI, tokenLabel: String
    ) throws(TokenError) -> (leaf: X509Certificate, chain: [X509Certificate]) {
        var certificates: UnsafeMutablePointer<PKCS11_CERT>?
        var count: UInt32 = 0
        guard CMirrorShims_PKCS11_enumerate_certs(token, &certificates, &count) == 0 else {
            throw .pkcs11(operation: "PKCS11_enumerate_certs", detail: OpenSSLErrorQueue.drainedText())
        }
        var all: [X509Certificate] = []
        var leaf: X509Certificate?
        if let certificates {
            for index in 0..<Int(count) {
                let entry = certificates + index
                guard let x509 = entry.pointee.x509 else { continue }
                let certificate = X509Certificate(retaining: x509)
                all.append(certificate)
                if leaf == nil, matches(label: entry.pointee.label, id: entry.pointee.id, length: entry.pointee.id_len, uri: uri) {
                    leaf = certificate
                }
            }
        }
        guard let leaf else { throw .certificateAbsent(token: tokenLabel, object: uri.objectDescription) }
        var chain: [X509Certificate] = []
        var current = leaf
        while chain.count < 8, X509_check_issued(current.pointer, current.pointer) != X509_V_OK,
              let issuer = all.first(where: { X509_check_issued($0.pointer, current.pointer) == X509_V_OK && $0 !== current }) {
            if X509_check_issued(issuer.pointer, issuer.pointer) == X509_V_OK { break }  // a root
            if chain.contains(where: { $0 === issuer }) { break }
            chain.append(issuer)
            current = issuer
        }
        return (leaf, chain)
    }

    private static func matches(label: UnsafeMutablePointer<CChar>?, id: UnsafeMutablePointer<UInt8>?, length: Int, uri: PKCS11URI) -> Bool {
        if let wanted = uri.object, label.map({ String(cString: $0) }) != wanted { return false }
        if let wanted = uri.id {
            guard let id, length == wanted.count, Array(UnsafeBufferPointer(start: id, count: length)) == wanted else { return false }
        }
        return true
    }

    /// A C string from libp11 (token fields are NUL-terminated and trimmed of the padding).
    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// An object id as `%01%02`.
    static func idText(_ id: UnsafeMutablePointer<UInt8>?, length: Int) -> String? {
        guard let id, length > 0 else { return nil }
        return UnsafeBufferPointer(start: id, count: length).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
