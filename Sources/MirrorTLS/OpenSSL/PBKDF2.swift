import CMirrorShims
import COpenSSL

/// PBKDF2 with HMAC-SHA-256 (RFC 8018, section 5.2): the key derivation of the PKCS#12 files
/// and encrypted keys that OpenSSL 3, Windows and Java write, 2,048 rounds by OpenSSL's default.
///
/// OpenSSL's own (`PKCS5_PBKDF2_HMAC`, its provider's `PBKDF2`) restarts HMAC by duplicating a
/// provider context twice a round, an allocation and a copy each time: 0.61 ms for 2,048
/// rounds on this project's VM, and a PKCS#12 file needs two derivations before a run's first
/// connection (issue #27). Here the hash states after HMAC's inner and outer pads are computed
/// once per derivation, and each round restarts from a plain copy of them: 0.25 ms. The output
/// is the standard's, byte for byte (RFC 7914's test vectors and OpenSSL's own results, in
/// `PBKDF2Tests`). Every intermediate value is wiped before returning.
enum PBKDF2 {
    /// SHA-256's output and block sizes, in bytes.
    static let digestLength = 32
    static let blockLength = 64

    /// Fills `key` with the PBKDF2-HMAC-SHA-256 derivation of `password` and `salt`.
    /// - Precondition: `rounds >= 1`.
    static func hmacSHA256(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, rounds: Int,
                           into key: UnsafeMutableRawBufferPointer) {
        precondition(rounds >= 1, "PBKDF2 needs at least one round")
        var inner = SHA256_CTX()
        var outer = SHA256_CTX()
        var state = SHA256_CTX()
        defer {
            wipe(&inner)
            wipe(&outer)
            wipe(&state)
        }
        withUnsafeTemporaryAllocation(byteCount: blockLength + 2 * digestLength, alignment: 16) { scratch in
            defer { OPENSSL_cleanse(scratch.baseAddress, scratch.count) }
            let pad = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<blockLength])
            let round = UnsafeMutableRawBufferPointer(rebasing: scratch[blockLength..<(blockLength + digestLength)])
            let sum = UnsafeMutableRawBufferPointer(rebasing: scratch[(blockLength + digestLength)...])

            // HMAC's key: the password, or its digest when longer than a block, then zeros.
            pad.initializeMemory(as: UInt8.self, repeating: 0)
            if password.count > blockLength {
                CMirrorShims_SHA256_Init(&state)
                CMirrorShims_SHA256_Update(&state, password.baseAddress, password.count)
                CMirrorShims_SHA256_Final(pad.baseAddress?.assumingMemoryBound(to: UInt8.self), &state)
            } else if !password.isEmpty {
                pad.copyMemory(from: password)
            }
            for index in 0..<blockLength { pad[index] ^= 0x36 }
            CMirrorShims_SHA256_Init(&inner)
            CMirrorShims_SHA256_Update(&inner, pad.baseAddress, blockLength)
            for index in 0..<blockLength { pad[index] ^= 0x36 ^ 0x5C }
            CMirrorShims_SHA256_Init(&outer)
            CMirrorShims_SHA256_Update(&outer, pad.baseAddress, blockLength)

            let roundBytes = round.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var offset = 0
            var blockIndex: UInt32 = 1
            while offset < key.count {
                // U1 = HMAC(password, salt || INT(i))
                state = inner
                CMirrorShims_SHA256_Update(&state, salt.baseAddress, salt.count)
                var counter = blockIndex.bigEndian
                _ = withUnsafeBytes(of: &counter) { CMirrorShims_SHA256_Update(&state, $0.baseAddress, $0.count) }
                CMirrorShims_SHA256_Final(roundBytes, &state)
                state = outer
                CMirrorShims_SHA256_Update(&state, roundBytes, digestLength)
                CMirrorShims_SHA256_Final(roundBytes, &state)
                sum.copyMemory(from: UnsafeRawBufferPointer(round))
                // Uj = HMAC(password, Uj-1); T = U1 ^ U2 ^ … ^ Uc
                for _ in 1..<rounds {
                    state = inner
                    CMirrorShims_SHA256_Update(&state, roundBytes, digestLength)
                    CMirrorShims_SHA256_Final(roundBytes, &state)
                    state = outer
                    CMirrorShims_SHA256_Update(&state, roundBytes, digestLength)
                    CMirrorShims_SHA256_Final(roundBytes, &state)
                    for word in stride(from: 0, to: digestLength, by: 8) {
                        let mixed = sum.loadUnaligned(fromByteOffset: word, as: UInt64.self)
                            ^ round.loadUnaligned(fromByteOffset: word, as: UInt64.self)
                        sum.storeBytes(of: mixed, toByteOffset: word, as: UInt64.self)
                    }
                }
                let count = min(digestLength, key.count - offset)
                UnsafeMutableRawBufferPointer(rebasing: key[offset..<(offset + count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: sum[0..<count]))
                offset += count
                blockIndex &+= 1
            }
        }
    }

    private static func wipe(_ state: inout SHA256_CTX) {
        withUnsafeMutableBytes(of: &state) { OPENSSL_cleanse($0.baseAddress, $0.count) }
    }
}
