import Testing
@testable import MirrorStore

/// `DigestKey`: a SHA-256's hex text as four words, and back.
struct DigestKeyTests {
    static let digest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    @Test func hexTextRoundTripsInLowerCase() throws {
        let key = try #require(DigestKey(hex: Self.digest))
        #expect(key.hex == Self.digest)
        #expect(DigestKey(hex: Self.digest.uppercased()) == key)
        // Leading zeros of each word survive.
        let zeros = String(repeating: "0", count: 15) + "1" + String(repeating: "0", count: 48)
        #expect(DigestKey(hex: zeros)?.hex == zeros)
    }

    @Test func eachWordCounts() throws {
        let key = try #require(DigestKey(hex: Self.digest))
        for position in [0, 15, 16, 31, 32, 47, 48, 63] {
            var bytes = Array(Self.digest.utf8)
            bytes[position] = bytes[position] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            let other = try #require(DigestKey(hex: String(decoding: bytes, as: UTF8.self)))
            #expect(other != key, "digit \(position)")
        }
    }

    static let refused: [String] = {
        let body = String(digest.dropLast())
        var texts: [String] = ["", "abc", body, digest + "0", body + "g", "z" + String(digest.dropFirst())]
        texts.append(body + " ")
        texts.append(String(digest.dropLast(2)) + "\u{E9}")
        return texts
    }()

    @Test(arguments: refused)
    func anythingButSixtyFourHexDigitsIsRefused(text: String) {
        #expect(DigestKey(hex: text) == nil)
    }
}
