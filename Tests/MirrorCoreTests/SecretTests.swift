import Testing
@testable import MirrorCore

@Suite struct SecretTests {
    @Test func secretNeverPrintsItself() {
        let secret = Secret("hunter2-password\n")
        #expect("\(secret)" == "<redacted>")
        #expect(String(describing: secret).contains("hunter2") == false)
        #expect(String(reflecting: secret).contains("hunter2") == false)
        #expect(secret.reveal() == "hunter2-password")
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func sha256MatchesKnownVectors(input: String, expected: String) {
        #expect(SHA256Digest.hex(Array(input.utf8)) == expected)
        let stream = SHA256Stream()
        Array(input.utf8).withUnsafeBytes { stream.update($0) }
        #expect(stream.finalizeHex() == expected)
    }
}

@Suite struct HexStringTests {
    @Test func bytesBecomeLowerCaseHexPairs() {
        #expect([UInt8]().hexString == "")
        #expect([0x00, 0x0f, 0x10, 0xab, 0xff].hexString == "000f10abff")
        #expect(SHA256Digest.hash(Array("abc".utf8)).hexString
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// Every byte value, through contiguous storage, raw bytes and a sequence without
    /// contiguous storage, against `String(format:)`.
    @Test func everyByteValueInEveryForm() {
        let bytes = (0...255).map { UInt8($0) }
        let expected = bytes.map { String(format: "%02x", $0) }.joined()
        #expect(bytes.hexString == expected)
        #expect(bytes.withUnsafeBytes { $0.hexString } == expected)
        #expect(bytes.lazy.map { $0 }.hexString == expected)
        #expect(stride(from: 0, through: 255, by: 1).lazy.map { UInt8($0) }.hexString == expected)
    }
}
