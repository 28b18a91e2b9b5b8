import Foundation

/// Reads WARC records back from a gzip-per-record WARC file: for recovery, indexing, replay and
/// the tests. It reads only our own archive files, never the mirror.
public struct WARCReader {
    /// A record read back.
    public struct Record: Sendable {
        /// Where its gzip member starts, and the member's length.
        public var offset: Int64
        public var length: Int64
        public var type: WARCRecordType?
        /// The version line (`WARC/1.1`).
        public var version: String
        public var fields: WARCFields
        /// The HTTP head at the start of the block (request and response records), or empty.
        public var httpHead: [UInt8]
        /// The rest of the block (all of it when read whole, else what the prefix held).
        public var payload: [UInt8]
        /// The block's length (`Content-Length`).
        public var blockLength: Int64
        /// Whether ``payload`` holds the whole rest of the block.
        public var isComplete: Bool
    }

    /// What reading a file gave.
    public struct Scan: Sendable {
        public var records: [Record]
        /// Where the whole members end: the file's length when it is intact.
        public var validLength: Int64
        /// Why the rest could not be read, when it could not.
        public var damage: String?
    }

    public let path: String

    public init(path: String) { self.path = path }

    /// Every record, with its head and the first `keep` bytes of its block (all with nil).
    /// - Throws: ``ArchiveError/io(operation:path:errno:)`` when the file cannot be read. A damaged
    ///   end is not an error: ``Scan/damage`` says where the whole records stop.
    public func scan(keep: Int? = 64 * 1024) throws(ArchiveError) -> Scan {
        let reader = try GzipMemberReader(path: path)
        var records: [Record] = []
        var valid: Int64 = 0
        while true {
            switch try reader.next(keep: keep) {
            case .end:
                return Scan(records: records, validLength: valid, damage: nil)
            case .damaged(let offset, let reason):
                return Scan(records: records, validLength: offset, damage: reason)
            case .member(let member):
                guard let record = Self.parse(member.prefix, offset: member.offset, length: member.length,
                                              decompressed: member.decompressedLength) else {
                    return Scan(records: records, validLength: member.offset, damage: "a gzip member that is not a WARC record")
                }
                records.append(record)
                valid = member.offset + member.length
            }
        }
    }

    /// The whole record whose member starts at `offset`.
    /// - Throws: ``ArchiveError/corrupt(path:offset:reason:)`` when there is no whole record there.
    public func record(at offset: Int64) throws(ArchiveError) -> Record {
        let reader = try GzipMemberReader(path: path, from: offset)
        switch try reader.next(keep: nil) {
        case .member(let member):
            guard let record = Self.parse(member.prefix, offset: offset, length: member.length, decompressed: member.decompressedLength)
            else { throw .corrupt(path: path, offset: offset, reason: "not a WARC record") }
            return record
        case .end:
            throw .corrupt(path: path, offset: offset, reason: "no record at this offset")
        case .damaged(_, let reason):
            throw .corrupt(path: path, offset: offset, reason: reason)
        }
    }

    /// Parses a record from the decompressed bytes of its member (or their start).
    static func parse(_ bytes: [UInt8], offset: Int64, length: Int64, decompressed: Int64) -> Record? {
        guard let versionEnd = bytes.firstIndex(of: 0x0A) else { return nil }
        let version = String(decoding: bytes[..<versionEnd], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard version.hasPrefix("WARC/") else { return nil }
        guard let blockStart = Self.endOfHead(bytes, from: versionEnd + 1) else { return nil }
        let fields = WARCFields.parse(bytes[(versionEnd + 1)..<blockStart])
        let blockLength = fields["Content-Length"].flatMap { Int64($0) } ?? 0
        let available = bytes[blockStart...]
        let type = fields["WARC-Type"].flatMap(WARCRecordType.init(rawValue:))
        var httpHead: [UInt8] = []
        var payloadStart = blockStart
        let blockEnd = min(bytes.count, blockStart + Int(min(blockLength, Int64(Int.max / 2))))
        if type == .request || type == .response || type == .revisit, !available.isEmpty,
           let headEnd = Self.endOfHead(bytes, from: blockStart), headEnd <= blockEnd {
            httpHead = Array(bytes[blockStart..<headEnd])
            payloadStart = headEnd
        }
        let payload = payloadStart < blockEnd ? Array(bytes[payloadStart..<blockEnd]) : []
        let whole = Int64(blockStart) + blockLength + 4 <= decompressed && Int64(bytes.count) >= Int64(blockStart) + blockLength
        return Record(offset: offset, length: length, type: type, version: version, fields: fields, httpHead: httpHead,
                      payload: payload, blockLength: blockLength, isComplete: whole)
    }

    /// The index just past the empty line that ends a head starting at `start` (CRLF CRLF, or
    /// LF LF), or nil.
    static func endOfHead(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        var lineStart = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let line = bytes[lineStart..<index]
                if line.isEmpty || (line.count == 1 && line.first == 0x0D) { return index + 1 }
                lineStart = index + 1
            }
            index += 1
        }
        return nil
    }
}
