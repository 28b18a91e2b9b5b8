import COpenSSL
import Foundation

/// SHA-256 through OpenSSL's EVP interface.
public enum SHA256Digest {
    /// OpenSSL 3's SHA-256, fetched once. Passing `EVP_sha256()` instead makes every
    /// `EVP_DigestInit_ex` fetch it again (a provider lookup with locks), once per download.
    nonisolated(unsafe) static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()

    /// The 32-byte SHA-256 digest of `bytes`.
    public static func hash<D: ContiguousBytes>(_ bytes: D) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { raw in
            var length: UInt32 = 0
            _ = EVP_Digest(raw.baseAddress, raw.count, &out, &length, algorithm, nil)
        }
        return out
    }

    /// Lower-case hexadecimal SHA-256 of `bytes`.
    public static func hex<D: ContiguousBytes>(_ bytes: D) -> String {
        hash(bytes).hexString
    }
}

/// Incremental SHA-256, for hashing a body while it streams to disk.
public final class SHA256Stream {
    private let context: OpaquePointer

    public init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, SHA256Digest.algorithm, nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        EVP_DigestUpdate(context, base, buffer.count)
    }

    /// Ends the hash and returns it as lower-case hex. Call once.
    public func finalizeHex() -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
        return out.hexString
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal, two digits a byte.
    public var hexString: String {
        let digits: StaticString = "0123456789abcdef"
        var chars: [UInt8] = []
        chars.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            chars.append(digits.utf8Start[Int(byte >> 4)])
            chars.append(digits.utf8Start[Int(byte & 0x0f)])
        }
        return String(decoding: chars, as: UTF8.self)
    }
}
