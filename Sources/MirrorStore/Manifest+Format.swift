import Foundation

// The manifest file format, version 2 (UTF-8 text, one record a line, `\n` line ends):
//
//     mtls-mirror-manifest<TAB>2
//     <url><TAB><localPath><TAB><status><TAB><contentType><TAB><length><TAB><sha256><TAB>
//         <etag><TAB><lastModified><TAB><fetchedAt><TAB><error><TAB><state>[<TAB><reference>]*
//     …
//     #end<TAB><number of entries>
//
// - `state` is empty, or `stale:<depth>` / `stale:<depth>:requisite` for an entry a run that
//   stopped early carried over without revalidating it (``ManifestEntry/stale``). Version 1
//   files (no `state` field) are still read.
// - Text fields escape `\` `TAB` `LF` `CR` as `\\` `\t` `\n` `\r`. An optional text field is
//   empty when absent and starts with `=` when present (so `=` alone is the empty string).
// - `status` and `length` are decimal, empty when absent. `fetchedAt` is the Double number of
//   seconds since 2001-01-01 (`Date.timeIntervalSinceReferenceDate`) in Swift's shortest
//   round-trip form, so dates come back bit for bit.
// - Entries are sorted by URL. The `#end` line catches a file cut short at a line boundary.

extension Manifest {
    static let header = "mtls-mirror-manifest\t2"
    /// The header of version 1 files, which lack the `state` field.
    static let headerVersion1 = "mtls-mirror-manifest\t1"
    static let trailerPrefix = "#end\t"
    static let fixedFieldCount = 11
    static let fixedFieldCountVersion1 = 10

    /// The manifest in its file format, in one buffer (for tests and small manifests; ``save(to:at:)``
    /// streams instead).
    public func encoded() -> [UInt8] {
        var whole: [UInt8] = []
        encode(chunkBytes: .max) { (chunk: inout [UInt8]) in
            whole.append(contentsOf: chunk)
            chunk.removeAll(keepingCapacity: true)
        }
        return whole
    }

    /// Encodes the manifest in its file format, handing the bytes to `emit` whenever the buffer
    /// holds `chunkBytes` or more, and once at the end. `emit` must empty the buffer (it keeps
    /// its capacity for the next chunk). So saving 100,000 entries holds one chunk, not the
    /// whole file (at 23,000 URLs the file is 13 MB, and growing one array to it took twice that).
    ///
    /// - Parameters:
    ///   - chunkBytes: the buffer size that triggers `emit`.
    ///   - emit: receives each chunk; its error ends the encoding.
    func encode<E: Error>(chunkBytes: Int, _ emit: (inout [UInt8]) throws(E) -> Void) throws(E) {
        var out: [UInt8] = []
        out.reserveCapacity(Swift.min(chunkBytes, count * 200) + 64 * 1024)
        out.append(contentsOf: Manifest.header.utf8)
        out.append(0x0A)
        for key in sortedKeys {
            guard let entry = entry(forKey: key) else { continue }
            Manifest.appendLine(entry, to: &out)
            if out.count >= chunkBytes { try emit(&out) }
        }
        out.append(contentsOf: Manifest.trailer(count: count))
        try emit(&out)
    }

    /// Appends one entry's line, `\n` included: the one encoding of an entry, shared by
    /// ``encode(chunkBytes:_:)`` and ``ManifestRecords`` (which stores each line as it is
    /// written), so that the two files can never differ.
    /// - Parameters:
    ///   - entry: the entry.
    ///   - out: the buffer to append to.
    static func appendLine(_ entry: ManifestEntry, to out: inout [UInt8]) {
        appendEscaped(entry.url, to: &out)
        appendOptional(entry.localPath, to: &out)
        out.append(0x09)
        if let status = entry.status { out.append(contentsOf: String(status).utf8) }
        appendOptional(entry.contentType, to: &out)
        out.append(0x09)
        if let length = entry.length { out.append(contentsOf: String(length).utf8) }
        appendOptional(entry.sha256, to: &out)
        appendOptional(entry.etag, to: &out)
        appendOptional(entry.lastModified, to: &out)
        out.append(0x09)
        if let date = entry.fetchedAt { out.append(contentsOf: String(date.timeIntervalSinceReferenceDate).utf8) }
        appendOptional(entry.error, to: &out)
        appendOptional(entry.stale.map(stateText), to: &out)
        for reference in entry.references {
            out.append(0x09)
            appendEscaped(reference, to: &out)
        }
        out.append(0x0A)
    }

    /// The file's last line (`\n` included) for `count` entries.
    static func trailer(count: Int) -> [UInt8] {
        Array((trailerPrefix + String(count) + "\n").utf8)
    }

    /// The `state` field's text for a stale entry.
    static func stateText(_ stale: ManifestEntry.Stale) -> String {
        "stale:\(stale.depth)" + (stale.isRequisite ? ":requisite" : "")
    }

    /// Parses a `state` field's text; nil when it is not one this version writes.
    static func stale(fromState text: String) -> ManifestEntry.Stale? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0] == "stale", let depth = Int(parts[1]), depth >= 0,
              parts.count == 2 || parts[2] == "requisite"
        else { return nil }
        return ManifestEntry.Stale(depth: depth, isRequisite: parts.count == 3)
    }

    static func appendOptional(_ value: String?, to out: inout [UInt8]) {
        out.append(0x09)
        guard let value else { return }
        out.append(UInt8(ascii: "="))
        appendEscaped(value, to: &out)
    }

    static func appendEscaped(_ value: String, to out: inout [UInt8]) {
        // Over contiguous bytes: the common case (nothing to escape) is one scan and one copy.
        var value = value
        value.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case 0x5C: out += [0x5C, 0x5C]
                case 0x09: out += [0x5C, UInt8(ascii: "t")]
                case 0x0A: out += [0x5C, UInt8(ascii: "n")]
                case 0x0D: out += [0x5C, UInt8(ascii: "r")]
                default: out.append(byte)
                }
            }
        }
    }
}
