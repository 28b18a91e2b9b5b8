import MirrorCore
import MirrorStore

extension CrawlState.Document {
    /// Appends the document to a spilled record (``MirrorCore/ByteRecord``), all but its URL,
    /// which the crawl keeps by id: its local path, kind, content type, SHA-256, whether only
    /// the original is on disk, whether it is unchanged since the previous snapshot (and its
    /// previous copy linked), and its prepared rewrite.
    func write(to writer: inout ByteRecord.Writer) {
        writer.text(localPath)
        writer.byte(kind == .html ? 0 : 1)
        writer.optionalText(contentType)
        writer.text(sha256)
        writer.byte((originalOnly ? 1 : 0) | (isUnchanged ? 2 : 0) | (previousCopyLinked ? 4 : 0))
        if let deferred {
            writer.byte(1)
            deferred.write(to: &writer)
        } else {
            writer.byte(0)
        }
    }

    /// Reads a document written by ``write(to:)``; nil for a damaged record. A rewrite that
    /// cannot be read back is dropped (the document is then parsed again when rewritten).
    static func read(from reader: inout ByteRecord.Reader, url: WebURL) -> CrawlState.Document? {
        guard let localPath = reader.text(), let kindByte = reader.byte(), kindByte <= 1,
              let contentType = reader.optionalText(), let sha256 = reader.text(),
              let flags = reader.byte(), flags < 8 else { return nil }
        var document = CrawlState.Document(url: url, localPath: localPath, kind: kindByte == 0 ? .html : .css,
                                           contentType: contentType, sha256: sha256)
        document.originalOnly = flags & 1 != 0
        document.isUnchanged = flags & 2 != 0
        document.previousCopyLinked = flags & 4 != 0
        if reader.byte() == 1 { document.deferred = DeferredRewrite.read(from: &reader) }
        return document
    }
}
