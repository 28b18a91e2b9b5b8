import Foundation
import MirrorCore
import MirrorHTTP

/// Writes a run's captures into WARC files in one folder: a `warcinfo` record starts each
/// file, each exchange becomes a request and a response (or revisit), a file that reached the
/// size limit is closed and the next one begun, and every closed file gets its sorted CDXJ
/// index. The decisions live in ``WARCRecordBuilder``; this is the file side.
///
/// Not thread-safe: ``ArchiveSink`` drives it from its writer thread.
final class WARCArchiveWriter {
    struct Configuration: Sendable {
        /// Where the WARC files go (private, existing).
        var folder: String
        /// Where their indexes go (private, existing).
        var indexFolder: String
        /// The start of each file name (the site's name).
        var prefix: String
        /// A file is closed once it holds this many bytes (one exchange may go past it).
        var maxFileSize: Int64
        /// The `warcinfo` block of each file (tool, version, options without secrets).
        var info: WARCFields
        /// Header names (lower case) redacted in records.
        var redactedHeaders: Set<String>
    }

    /// A closed file.
    struct FinishedFile: Sendable, Equatable {
        var name: String
        var bytes: Int64
        var records: Int
        var indexName: String
    }

    let configuration: Configuration
    private let encoder: GzipEncoder
    private let buffer: GzipBuffer
    private var current: WARCFileWriter?
    /// The index lines of the current file, made as its records are written (while the crawl
    /// goes on) so that closing it only sorts them.
    private var lines: [[UInt8]] = []
    private var serial = 0
    private(set) var finished: [FinishedFile] = []
    /// Exchanges written, and how many of them were revisits.
    private(set) var exchanges = 0
    private(set) var revisits = 0

    /// - Throws: ``ArchiveError/compression(path:code:message:)`` when zlib cannot start.
    init(configuration: Configuration) throws(ArchiveError) {
        self.configuration = configuration
        encoder = try GzipEncoder(level: GzipEncoder.fastLevel)
        buffer = try GzipBuffer()
    }

    /// Writes one exchange (request, then response or revisit), opening or rotating the file.
    /// - Returns: what was built, with the reference a later revisit of the URL should use.
    /// - Throws: ``ArchiveError``; the records written before stay whole.
    @discardableResult
    func write(_ capture: HTTPCapture, previous: CaptureReference?) throws(ArchiveError) -> WARCRecordBuilder.Exchange {
        if let file = current, file.size >= configuration.maxFileSize { try closeCurrent() }
        let file: WARCFileWriter
        if let open = current { file = open } else { file = try openNext(date: capture.date) }
        let builder = WARCRecordBuilder(redactedHeaders: configuration.redactedHeaders, warcinfoID: file.warcinfoID)
        let exchange = try builder.exchange(capture, previous: previous)
        try file.append(exchange.request, deflate: true)
        let written = try file.append(exchange.response, deflate: Self.deflates(exchange))
        if let timestamp = WARCDate.timestamp(ofWARCDate: exchange.date) {
            let status = exchange.responseHead.status
            let entry = CDXJEntry(
                key: SURT.key(capture.url), timestamp: timestamp, url: capture.url,
                mime: exchange.profile != nil ? "warc/revisit" : exchange.responseHead.contentType.map(CDXJEntry.mediaType),
                status: status > 0 ? String(status) : nil, digest: exchange.payloadDigest,
                length: written.length, offset: written.offset, filename: file.name)
            lines.append(Array(entry.line.utf8))
        }
        exchanges += 1
        if exchange.profile != nil { revisits += 1 }
        return exchange
    }

    /// Writes the records buffered for the current file (the sink calls it when no capture is
    /// waiting, so that an idle archive holds nothing back).
    /// - Throws: ``ArchiveError``.
    func flush() throws(ArchiveError) {
        try current?.flush()
    }

    /// Closes the current file (sync, rename, index).
    /// - Throws: ``ArchiveError``.
    func finish() throws(ArchiveError) {
        try closeCurrent()
    }

    private func openNext(date: Date) throws(ArchiveError) -> WARCFileWriter {
        serial += 1
        let random = NumberText.zeroPadded(Int(UInt16.random(in: 0...UInt16.max)), width: 4, radix: 16)
        // The time to the microsecond, so that the files of consecutive runs sort in order.
        let micros = Int((date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)) * 1_000_000)
        let stamp = WARCDate.timestamp(date) + NumberText.zeroPadded(min(max(micros, 0), 999_999), width: 6)
        let name = "\(configuration.prefix)-\(stamp)-\(NumberText.zeroPadded(serial, width: 5))-\(random)"
            + WARCFileWriter.finishedSuffix
        let builder = WARCRecordBuilder(redactedHeaders: configuration.redactedHeaders)
        let warcinfo = builder.warcinfo(filename: name, date: date, info: configuration.info)
        let file = try WARCFileWriter(folder: configuration.folder, name: name, warcinfo: warcinfo, encoder: encoder, buffer: buffer)
        current = file
        return file
    }

    private func closeCurrent() throws(ArchiveError) {
        guard let file = current else { return }
        current = nil
        try file.close()
        let indexName = CDXJIndex.name(forWARC: file.name)
        try PrivateFile.write(CDXJIndex.text(lines: lines), to: configuration.indexFolder + "/" + indexName)
        lines.removeAll()
        finished.append(FinishedFile(name: file.name, bytes: file.size, records: file.recordCount, indexName: indexName))
    }

    /// Whether a response's member is deflated: not for a payload that is compressed already (a
    /// `Content-Encoding`, or an image, font, audio or video format that compresses itself),
    /// which deflate cannot shrink; everything else is, revisits and their requests included, so
    /// that a year of refreshes of an unchanged site costs a third of what stored records would
    /// (README "Archive output" has the figures).
    static func deflates(_ exchange: WARCRecordBuilder.Exchange) -> Bool {
        let record = exchange.response
        guard record.type == .response, record.payload.count >= 512 else { return true }
        if let encoding = exchange.responseHead.contentEncoding, !encoding.isEmpty, encoding.lowercased() != "identity" {
            return false
        }
        let type = exchange.responseHead.contentType.map(CDXJEntry.mediaType)?.lowercased() ?? ""
        if type.hasPrefix("image/") && type != "image/svg+xml" && type != "image/bmp" && type != "image/x-icon" { return false }
        if type.hasPrefix("video/") || type.hasPrefix("audio/") || type == "font/woff" || type == "font/woff2"
            || type == "application/zip" || type == "application/gzip" || type == "application/x-gzip"
            || type == "application/zstd" || type == "application/x-7z-compressed" {
            return false
        }
        return true
    }
}
