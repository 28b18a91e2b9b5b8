import Foundation

/// The last full capture of every URL an archive holds (`captures.tsv` in the archive folder),
/// which a refresh's revisit records refer to. One line per URL:
/// `URL TAB WARC-Date TAB WARC-Record-ID TAB WARC-Payload-Digest`.
///
/// It lives with the archive, not with a snapshot: it describes what the WARC files hold, so a
/// rollback of the mirror or a failed run leave it true.
struct CaptureHistory: Sendable {
    static let fileName = "captures.tsv"

    private(set) var references: [String: CaptureReference] = [:]

    subscript(url: String) -> CaptureReference? { references[url] }

    var count: Int { references.count }

    mutating func update(_ reference: CaptureReference) { references[reference.url] = reference }

    /// Reads the file; a missing file is an empty history, a damaged line is skipped.
    static func load(folder: String) -> CaptureHistory {
        var history = CaptureHistory()
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName) else { return history }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, !fields[0].isEmpty else { continue }
            history.update(CaptureReference(url: fields[0], date: fields[1], recordID: fields[2], payloadDigest: fields[3]))
        }
        return history
    }

    /// Writes the file atomically (0600).
    /// - Throws: ``ArchiveError``.
    func save(folder: String) throws(ArchiveError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(references.count * 200)
        for reference in references.values {
            // URLs carry no tab or newline (they are percent-encoded); a value that did would be dropped.
            let fields = [reference.url, reference.date, reference.recordID, reference.payloadDigest]
            guard !fields.contains(where: { $0.utf8.contains(0x09) || $0.utf8.contains(0x0A) }) else { continue }
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(0x09) }
                bytes.append(contentsOf: field.utf8)
            }
            bytes.append(0x0A)
        }
        try PrivateFile.write(bytes, to: folder + "/" + Self.fileName)
    }
}
