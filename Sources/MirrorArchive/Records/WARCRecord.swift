import Foundation
import MirrorCore
import MirrorHTTP

/// The kinds of WARC 1.1 record (§6) this tool writes and reads.
public enum WARCRecordType: String, Sendable, CaseIterable {
    case warcinfo, request, response, revisit, resource, metadata, conversion, continuation
}

/// One WARC record as a value: its header fields and its block, with the digests computed from
/// the bytes that are written. Nothing here touches a file except reading a spooled payload.
///
/// The block of an HTTP record is the HTTP head followed by the payload, so the two are kept
/// apart: the head is small and may be changed (redacted) before the digests are taken; the
/// payload is the body as the server sent it, in memory or in a spool file.
///
/// Serialized (WARC 1.1 §4): `WARC/1.1` CRLF, the fields, CRLF, the block, CRLF CRLF.
public struct WARCRecord: Sendable {
    /// The version line.
    public static let version = "WARC/1.1"

    public var type: WARCRecordType
    /// Every field except `Content-Length`, which ``headerBytes`` adds from the block.
    public var fields: WARCFields
    /// The HTTP head part of the block (empty for `warcinfo`).
    public var head: [UInt8]
    /// The rest of the block: the payload.
    public var payload: CapturedPayload

    /// - Parameters:
    ///   - type: the record type (written as `WARC-Type` by the builder).
    ///   - fields: the named fields, without `Content-Length`.
    ///   - head: the HTTP head of the block.
    ///   - payload: the payload part of the block.
    public init(type: WARCRecordType, fields: WARCFields, head: [UInt8] = [], payload: CapturedPayload = .memory([])) {
        self.type = type
        self.fields = fields
        self.head = head
        self.payload = payload
    }

    /// `Content-Length`: the block's size in bytes.
    public var blockLength: Int64 { Int64(head.count) + payload.count }

    /// The record's ID (`<urn:uuid:…>`).
    public var id: String? { fields["WARC-Record-ID"] }

    /// The version line, the fields, `Content-Length` and the empty line: everything before the
    /// block.
    public var headerBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(640)
        bytes.append(contentsOf: "WARC/1.1\r\n".utf8)
        fields.serialize(into: &bytes)
        bytes.append(contentsOf: "Content-Length: ".utf8)
        bytes.append(contentsOf: String(blockLength).utf8)
        bytes.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A])
        return bytes
    }

    /// What follows the block.
    public static let trailer: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    /// A fresh record ID: a random (version 4, RFC 9562 §5.4) UUID as `<urn:uuid:…>`, lower case.
    public static func newID() -> String {
        var (high, low) = RecordIDGenerator.shared.next()
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(UInt64(0xC) << 60)) | (UInt64(0x8) << 60)  // variant 10
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 47) { out in
            var at = 0
            func put(_ byte: UInt8) { out[at] = byte; at += 1 }
            for byte in "<urn:uuid:".utf8 { put(byte) }
            for (index, value) in [high, low].enumerated() {
                for nibble in 0..<16 {
                    let position = index * 16 + nibble
                    if position == 8 || position == 12 || position == 16 || position == 20 { put(UInt8(ascii: "-")) }
                    put(digits.utf8Start[Int((value >> UInt64(60 - nibble * 4)) & 0xF)])
                }
            }
            put(UInt8(ascii: ">"))
            return at
        }
    }
}

/// `WARC-Block-Digest` and `WARC-Payload-Digest` values: SHA-256, written `sha256:` plus lower-case
/// hex, as warcio.js and Browsertrix write them (warcio, cdxj-indexer and pywb read hex,
/// base32 and base64 alike; hex is also how WACZ names its files' hashes).
public enum WARCDigest {
    /// The label of a lower-case hex SHA-256.
    public static func label(hex: String) -> String { "sha256:" + hex }

    /// The digest of bytes in memory.
    public static func of(_ bytes: [UInt8]) -> String { label(hex: SHA256Digest.hex(bytes)) }

    /// The digest of no bytes (a request's payload).
    public static let empty = of([])
}

/// 128 random bits per record ID, from a xoshiro256** generator seeded by the system's: one
/// `getrandom` call per process instead of one per record. IDs must be unique, not secret.
final class RecordIDGenerator: @unchecked Sendable {
    static let shared = RecordIDGenerator()
    private let lock = NSLock()
    private var state: (UInt64, UInt64, UInt64, UInt64)

    private init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    func next() -> (UInt64, UInt64) {
        lock.lock()
        defer { lock.unlock() }
        return (step(), step())
    }

    private func step() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }
}
