import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes and reads CDXJ index files: one sorted index per WARC file (`indexes/NAME.cdxj`,
/// beside the archive), merged into one for a WACZ package or for replay.
public enum CDXJIndex {
    /// The index file name of a WARC file.
    public static func name(forWARC warc: String) -> String {
        (warc.hasSuffix(".warc.gz") ? String(warc.dropLast(".warc.gz".count)) : warc) + ".cdxj"
    }

    /// The lines of `entries`, sorted by byte, duplicates removed, each ended by a newline.
    public static func text(_ entries: [CDXJEntry]) -> [UInt8] {
        text(lines: entries.map { Array($0.line.utf8) })
    }

    /// Index lines (without newlines) sorted by byte, duplicates removed, each ended by a newline.
    static func text(lines: [[UInt8]]) -> [UInt8] {
        let sorted = lines.sorted { a, b in
            a.withUnsafeBufferPointer { x in
                b.withUnsafeBufferPointer { y in
                    let shared = min(x.count, y.count)
                    let common = shared == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, shared)
                    return common != 0 ? common < 0 : x.count < y.count
                }
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(sorted.reduce(0) { $0 + $1.count + 1 })
        var last: [UInt8]?
        for line in sorted where line != last {
            output += line
            output.append(0x0A)
            last = line
        }
        return output
    }

    /// Writes `entries` sorted to `path` (0600, through a temporary file and a rename).
    /// - Throws: ``ArchiveError`` when the file cannot be written.
    public static func write(_ entries: [CDXJEntry], to path: String) throws(ArchiveError) {
        try PrivateFile.write(text(entries), to: path)
    }

    /// Reads an index file (lines that are not entries are skipped).
    /// - Throws: ``ArchiveError/io(operation:path:errno:)``.
    public static func read(_ path: String) throws(ArchiveError) -> [CDXJEntry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(operation: "read", path: path, errno: errno == 0 ? ENOENT : errno)
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { CDXJEntry(line: String($0)) }
    }
}

/// Whole private files written atomically: a temporary file (0600, O_EXCL) in the same folder,
/// fsync, rename.
enum PrivateFile {
    static func write(_ bytes: [UInt8], to path: String) throws(ArchiveError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ArchiveError.from(errno: errno, operation: "open", path: temporary) }
        var failure: ArchiveError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = ArchiveError.from(errno: errno, operation: "write", path: path)
                    return
                }
                offset += count
            }
        }
        if failure == nil, fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0 {
            failure = ArchiveError.from(errno: errno, operation: "fsync", path: path)
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ArchiveError.from(errno: code, operation: "rename", path: path)
        }
    }

    /// Creates `path` and missing parents as private folders (0700).
    static func makeFolder(_ path: String) throws(ArchiveError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw ArchiveError.from(errno: errno, operation: "mkdir", path: current)
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(operation: "mkdir", path: path, errno: ENOTDIR)
        }
        _ = chmod(path, 0o700)
    }
}
