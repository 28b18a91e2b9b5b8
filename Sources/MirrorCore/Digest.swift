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
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, out.baseAddress, &length)
            return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(out)[..<Int(min(length, 32))]).hexString
        }
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal, two digits a byte.
    public var hexString: String {
        if let text = withContiguousStorageIfAvailable({ UnsafeRawBufferPointer($0).hexString }) { return text }
        return Array(self).withUnsafeBytes { $0.hexString }
    }
}

extension UnsafeRawBufferPointer {
    /// Lower-case hexadecimal, two digits a byte, written straight into the string's storage.
    public var hexString: String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: count * 2) { chars in
            for (index, byte) in enumerated() {
                chars[2 * index] = digits.utf8Start[Int(byte >> 4)]
                chars[2 * index + 1] = digits.utf8Start[Int(byte & 0x0f)]
            }
            return count * 2
        }
    }
}
