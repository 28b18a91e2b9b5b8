import Foundation

/// A site's archive folder as the commands that read it see it: its finished WARC files, the
/// files a killed run left open, and the index of every capture.
public enum ArchiveFolder {
    /// The finished WARC files (`*.warc.gz`), oldest first.
    public static func warcFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(WARCFileWriter.finishedSuffix) }.sorted()
    }

    /// Finishes the files a killed run left open (see ``ArchiveSink/open(_:)``); hold the site's
    /// lock. Returns the names of the files finished.
    /// - Throws: ``ArchiveError``.
    public static func finishInterrupted(in folder: String) throws(ArchiveError) -> [String] {
        let indexes = folder + "/" + ArchiveSink.indexFolderName
        try PrivateFile.makeFolder(indexes)
        return try WARCFileRecovery.recover(folder: folder, indexFolder: indexes).filter { $0.records > 0 }.map(\.name)
    }

    /// Every capture of every finished file, from the per-file indexes (a file without one is
    /// read), sorted as a CDXJ index is.
    /// - Throws: ``ArchiveError`` when a file without an index cannot be read.
    public static func index(of folder: String) throws(ArchiveError) -> [CDXJEntry] {
        var entries: [CDXJEntry] = []
        for name in warcFiles(in: folder) {
            let path = folder + "/" + ArchiveSink.indexFolderName + "/" + CDXJIndex.name(forWARC: name)
            if FileManager.default.fileExists(atPath: path), let read = try? CDXJIndex.read(path) {
                entries += read
            } else {
                entries += try WACZPackage.indexEntries(of: folder + "/" + name)
            }
        }
        return entries.sorted()
    }
}
