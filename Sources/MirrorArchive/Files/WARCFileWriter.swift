import CMirrorShims
import Foundation
import MirrorCore
import MirrorHTTP
#if canImport(Glibc)
import Glibc
#endif

/// Appends records to a WARC file as whole gzip members, one per record, and closes it safely.
///
/// While it is written the file is named `NAME.warc.gz.open`, which no reader takes for a
/// finished file; ``close()`` syncs it and renames it to `NAME.warc.gz`. A process killed
/// meanwhile leaves only the `.open` file, whose last member may be cut short:
/// ``WARCFileRecovery`` cuts that member off. Files are created 0600 in the (0700) folder.
///
/// Not thread-safe: one writer thread owns it.
final class WARCFileWriter {
    /// A record as written: where its member is, and what the index needs of it.
    struct Written: Sendable {
        var type: WARCRecordType
        var offset: Int64
        var length: Int64
        var fields: WARCFields
        /// The HTTP head of the block (for the index's status and media type).
        var head: [UInt8]
    }

    /// The suffix of a file being written.
    static let openSuffix = ".open"
    /// The suffix of a finished file.
    static let finishedSuffix = ".warc.gz"

    let folder: String
    /// The final name (`….warc.gz`).
    let name: String
    /// The `WARC-Record-ID` of the file's `warcinfo` record.
    let warcinfoID: String
    private var descriptor: Int32
    /// Bytes written so far, and buffered for the next write: the file's length once flushed.
    var size: Int64 { flushed + Int64(outgoing.count) }
    private var flushed: Int64 = 0
    /// Records written.
    private(set) var recordCount = 0
    private let encoder: GzipEncoder
    private let buffer: GzipBuffer
    private var outgoing: [UInt8] = []
    private var scratch: [UInt8] = []

    var openPath: String { folder + "/" + name + Self.openSuffix }
    var finishedPath: String { folder + "/" + name }

    /// Creates `folder/name.open` (it must not exist) and writes the `warcinfo` record.
    /// - Throws: ``ArchiveError`` when the file cannot be created or written.
    init(folder: String, name: String, warcinfo: WARCRecord, encoder: GzipEncoder, buffer: GzipBuffer) throws(ArchiveError) {
        self.folder = folder
        self.name = name
        self.encoder = encoder
        self.buffer = buffer
        warcinfoID = warcinfo.id ?? WARCRecord.newID()
        let path = folder + "/" + name + Self.openSuffix
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ArchiveError.from(errno: errno, operation: "open", path: path) }
        if fchmod(descriptor, 0o600) != 0 {
            let code = errno
            Glibc.close(descriptor)
            unlink(path)
            throw ArchiveError.from(errno: code, operation: "fchmod", path: path)
        }
        outgoing.reserveCapacity(Self.bufferSize + 64 * 1024)
        try append(warcinfo, deflate: true)
        try flush()
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Writes one record as one gzip member: deflated, or stored (for a payload that is
    /// compressed already, and for small records, where a deflate call costs more than it saves).
    ///
    /// Members are gathered in a 1 MiB buffer and written together (one system call for dozens
    /// of small records); ``flush()`` writes what is buffered. A process killed meanwhile loses
    /// the buffered records, never part of one that reached the file.
    /// - Throws: ``ArchiveError`` (``ArchiveError/diskFull(path:)`` when the disk is full).
    @discardableResult
    func append(_ record: WARCRecord, deflate: Bool) throws(ArchiveError) -> Written {
        guard descriptor >= 0 else { throw .io(operation: "write", path: openPath, errno: EBADF) }
        let offset = size
        switch record.payload {
        case .memory(let payload):
            // One contiguous record, one member.
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: record.headerBytes)
            scratch.append(contentsOf: record.head)
            scratch.append(contentsOf: payload)
            scratch.append(contentsOf: WARCRecord.trailer)
            scratch.withUnsafeBytes { input in
                outgoing.append(contentsOf: buffer.member(input, deflate: deflate))
            }
        case .file:
            // A spooled payload streams through zlib (it can be as large as the file limit).
            encoder.begin(level: deflate ? GzipEncoder.fastLevel : GzipEncoder.storeLevel)
            try encoder.compress(record.headerBytes, finish: false, into: &outgoing)
            try encoder.compress(record.head, finish: false, into: &outgoing)
            let encoder = self.encoder
            try record.payload.forEachChunk { chunk throws(ArchiveError) in
                try encoder.compress(chunk, finish: false, into: &outgoing)
                if outgoing.count >= Self.bufferSize { try flush() }
            }
            try encoder.compress(WARCRecord.trailer, finish: true, into: &outgoing)
        }
        let written = Written(type: record.type, offset: offset, length: size - offset, fields: record.fields, head: record.head)
        recordCount += 1
        if outgoing.count >= Self.bufferSize { try flush() }
        return written
    }

    /// The output gathered before a write.
    static let bufferSize = 1 << 20

    /// Writes the buffered members to the file.
    /// - Throws: ``ArchiveError`` (``ArchiveError/diskFull(path:)`` when the disk is full).
    func flush() throws(ArchiveError) {
        guard !outgoing.isEmpty else { return }
        var failure: ArchiveError?
        outgoing.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = ArchiveError.from(errno: errno, operation: "write", path: openPath)
                    return
                }
                done += count
            }
        }
        if let failure { throw failure }
        // Start writing the range out now, without waiting: the snapshot's syncfs and this
        // file's fsync then find it written.
        _ = CMirrorShims_sync_file_range_write(descriptor, flushed, Int64(outgoing.count))
        flushed += Int64(outgoing.count)
        outgoing.removeAll(keepingCapacity: true)
    }

    /// Syncs the file, renames it to its final name and syncs the folder.
    /// - Throws: ``ArchiveError`` when a step fails; the `.open` file then stays for recovery.
    func close() throws(ArchiveError) {
        guard descriptor >= 0 else { return }
        try flush()
        if fsync(descriptor) != 0 {
            let code = errno
            Glibc.close(descriptor)
            descriptor = -1
            throw ArchiveError.from(errno: code, operation: "fsync", path: openPath)
        }
        Glibc.close(descriptor)
        descriptor = -1
        guard rename(openPath, finishedPath) == 0 else {
            throw ArchiveError.from(errno: errno, operation: "rename", path: openPath)
        }
        Self.syncFolder(folder)
    }

    /// fsync(2) on a folder, so that a rename in it is durable.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        Glibc.close(descriptor)
    }
}
