import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finishes the WARC files a killed run left open (`….warc.gz.open`): the whole records are
/// kept, a member cut short at the end is truncated away, the file is synced and renamed to
/// its final name, and its index is written, as if the run had closed it.
///
/// Run it while holding the site's lock (no writer has the file open then).
enum WARCFileRecovery {
    /// What happened to one file.
    struct Outcome: Sendable, Equatable {
        var name: String
        /// Records kept.
        var records: Int
        /// Bytes cut off the end.
        var truncatedBytes: Int64
    }

    /// Recovers every `.open` file in `folder`; their indexes go to `indexFolder`.
    /// - Throws: ``ArchiveError`` when a file cannot be read, truncated or renamed.
    static func recover(folder: String, indexFolder: String) throws(ArchiveError) -> [Outcome] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(WARCFileWriter.finishedSuffix + WARCFileWriter.openSuffix) }.sorted()
        var outcomes: [Outcome] = []
        for openName in names {
            let path = folder + "/" + openName
            let finalName = String(openName.dropLast(WARCFileWriter.openSuffix.count))
            let scan = try WARCReader(path: path).scan(keep: 64 * 1024)
            var info = stat()
            guard lstat(path, &info) == 0 else { throw ArchiveError.from(errno: errno, operation: "stat", path: path) }
            let cut = Int64(info.st_size) - scan.validLength
            if scan.records.isEmpty {
                unlink(path)
                outcomes.append(Outcome(name: finalName, records: 0, truncatedBytes: Int64(info.st_size)))
                continue
            }
            if cut > 0, truncate(path, off_t(scan.validLength)) != 0 {
                throw ArchiveError.from(errno: errno, operation: "truncate", path: path)
            }
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 {
                _ = fsync(descriptor)
                close(descriptor)
            }
            let entries = scan.records.compactMap {
                CDXJEntry.forRecord(type: $0.type ?? .resource, fields: $0.fields, head: $0.httpHead, offset: $0.offset,
                                    length: $0.length, filename: finalName)
            }
            try CDXJIndex.write(entries, to: indexFolder + "/" + CDXJIndex.name(forWARC: finalName))
            guard rename(path, folder + "/" + finalName) == 0 else {
                throw ArchiveError.from(errno: errno, operation: "rename", path: path)
            }
            WARCFileWriter.syncFolder(folder)
            outcomes.append(Outcome(name: finalName, records: scan.records.count, truncatedBytes: cut))
        }
        return outcomes
    }
}
