import MirrorTLS
import Testing

/// RFC 7512 URIs: what is kept, what is decoded, and what is refused.
@Suite struct PKCS11URITests {
    @Test func parsesTokenAndObjectAttributes() throws {
        let uri = try PKCS11URI(parsing: "pkcs11:token=My%20Card;manufacturer=ACME;serial=42;slot-id=3;object=key%2D1;id=%01%AB;type=private?module-path=/usr/lib/x.so")
        #expect(uri.token == "My Card")
        #expect(uri.manufacturer == "ACME")
        #expect(uri.serial == "42")
        #expect(uri.slotID == 3)
        #expect(uri.object == "key-1")
        #expect(uri.id == [0x01, 0xAB])
        #expect(uri.idText == "%01%AB")
        #expect(uri.type == "private")
        #expect(uri.modulePath == "/usr/lib/x.so")
        #expect(uri.tokenDescription == "token 'My Card', serial 42, manufacturer 'ACME', slot 3")
    }

    @Test(arguments: [
        ("pkcs11:token=a", "names no object"),
        ("pkcs11:token=a;object", "has no value"),
        ("pkcs11:token=a;objekt=b", "unknown attribute \"objekt\""),
        ("pkcs11:object=a%2", "two hex digits"),
        ("pkcs11:object=a;slot-id=x", "decimal number"),
        ("pkcs11:object=a?module=x", "unknown query attribute"),
        ("/path/to/file.pem", "does not start with"),
    ])
    func refusesMalformedURIs(_ text: String, _ reason: String) {
        #expect(throws: TokenError.self) { try PKCS11URI(parsing: text) }
        do {
            _ = try PKCS11URI(parsing: text)
        } catch {
            #expect(error.summary.contains(reason), "\(error.summary)")
            #expect(error.category == .usage)
        }
    }

    @Test(arguments: ["pkcs11:object=k;pin-value=123456", "pkcs11:object=k?pin-value=123456", "pkcs11:object=k?pin-source=file:/p"])
    func refusesAPINInTheURIWithoutRepeatingIt(_ text: String) {
        do {
            _ = try PKCS11URI(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error == .pinInURI(uri: error.pinlessURI))
            #expect(!error.summary.contains("123456"))
        }
    }

    @Test func tellsURIsFromPaths() {
        #expect(PKCS11URI.isURI("pkcs11:object=a"))
        #expect(PKCS11URI.isURI("PKCS11:object=a"))
        #expect(!PKCS11URI.isURI("pkcs11.pem"))
        #expect(!PKCS11URI.isURI("./pkcs11:object"))
    }

    @Test(arguments: [
        (TokenError.wrongPIN(token: "t", status: .init()), 13),
        (TokenError.pinLocked(token: "t"), 13),
        (TokenError.tokenAbsent(selection: "token 't'", module: "m", seen: []), 14),
        (TokenError.keyAbsent(token: "t", object: "o"), 15),
        (TokenError.certificateAbsent(token: "t", object: "o"), 15),
        (TokenError.moduleMissing(path: "/x.so", package: nil), 16),
    ])
    func eachTokenFailureHasItsOwnCategory(_ error: TokenError, _ code: Int) {
        let expected: [Int: String] = [13: "tokenPIN", 14: "tokenAbsent", 15: "tokenObjectAbsent", 16: "tokenModule"]
        #expect(error.category.rawValue == expected[code])
        #expect(!error.hint.isEmpty)
    }

    @Test func thePINStatusPhrasesWarnBeforeTheTokenLocks() {
        #expect(TokenError.PINStatus().phrase == nil)
        #expect(TokenError.PINStatus(countLow: true).phrase?.contains("running low") == true)
        #expect(TokenError.PINStatus(countLow: true, finalTry: true).phrase?.contains("ONE try") == true)
        #expect(TokenError.PINStatus(locked: true).phrase?.contains("LOCKED") == true)
        #expect(TokenError.wrongPIN(token: "t", status: .init(finalTry: true)).hint.hasPrefix("STOP"))
    }
}

extension TokenError {
    /// The URI a ``pinInURI(uri:)`` carries (for comparing the case, not the text).
    fileprivate var pinlessURI: String {
        if case .pinInURI(let uri) = self { return uri }
        return ""
    }
}
