import Foundation

/// Reads WARC files with warcio itself (an implementation independent of mtls-mirror's) and
/// hands every record back as a value, for record-by-record checks of what WARC 1.1 requires.
///
/// warcio parses each record (`ArchiveIterator(check_digests=True)`), and the script reports its
/// offset, the version line, the named fields in order, the HTTP status line and fields, the
/// payload's length, SHA-256 and first bytes, and warcio's digest verdict. It also reports which
/// of the `needles` occur anywhere in the decompressed files (record headers included).
public enum WARCAudit {
    /// One record as warcio read it.
    public struct Record: Sendable, Decodable {
        public var file: String
        public var offset: Int
        public var length: Int
        public var version: String
        /// The WARC named fields, in order (name, value).
        public var fields: [[String]]
        /// The HTTP status or request line, when the block has one.
        public var httpLine: String?
        public var httpFields: [[String]]?
        public var payloadLength: Int
        public var payloadSHA256: String
        /// The payload's first bytes, hex.
        public var payloadStart: String
        /// warcio's digest verdict: true passed, false failed, nil not checked.
        public var digestsPassed: Bool?
        public var digestProblems: [String]

        /// The first value of a WARC field (names compared without case).
        public func field(_ name: String) -> String? {
            fields.first { $0.first?.lowercased() == name.lowercased() }?.last
        }

        /// Every value of a WARC field.
        public func values(_ name: String) -> [String] {
            fields.filter { $0.first?.lowercased() == name.lowercased() }.compactMap(\.last)
        }

        /// The first value of an HTTP field.
        public func httpField(_ name: String) -> String? {
            httpFields?.first { $0.first?.lowercased() == name.lowercased() }?.last
        }

        public var type: String { field("WARC-Type") ?? "" }
        public var status: Int? { httpLine.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } }
    }

    /// What the audit found.
    public struct Result: Sendable, Decodable {
        public var records: [Record]
        /// Needle → the files it was found in.
        public var found: [String: [String]]
    }

    static let script = #"""
    import gzip, hashlib, json, sys
    from warcio.archiveiterator import ArchiveIterator
    request = json.load(sys.stdin)
    records, found = [], {}
    for path in request["files"]:
        with open(path, "rb") as stream:
            it = ArchiveIterator(stream, check_digests=True)
            for record in it:
                http = record.http_headers
                payload = record.raw_stream.read()
                records.append({
                    "file": path, "offset": it.get_record_offset(), "length": 0,
                    "version": record.rec_headers.protocol,
                    "fields": [list(pair) for pair in record.rec_headers.headers],
                    "httpLine": (http.protocol + " " + http.statusline) if http else None,
                    "httpFields": [list(pair) for pair in http.headers] if http else None,
                    "payloadLength": len(payload), "payloadSHA256": hashlib.sha256(payload).hexdigest(),
                    "payloadStart": payload[:8].hex(),
                    "digestsPassed": record.digest_checker.passed,
                    "digestProblems": list(record.digest_checker.problems)})
                records[-1]["length"] = it.get_record_length() or 0
        data = gzip.open(path).read()
        for needle in request["needles"]:
            if needle.encode("utf-8") in data:
                found.setdefault(needle, []).append(path)
    json.dump({"records": records, "found": found}, sys.stdout)
    """#

    /// Audits `files`, looking for `needles` (secrets that must not be there) as well.
    /// - Throws: ``PythonTools/Missing`` without the venv; ``Failure`` when warcio cannot read a file.
    public static func audit(_ files: [String], needles: [String] = []) throws -> Result {
        let python = try PythonTools.tool("python")
        let input = try JSONSerialization.data(withJSONObject: ["files": files, "needles": needles])
        let run = CommandRunner(executable: python).run(["-c", script], stdin: input, timeout: 120)
        guard run.succeeded else { throw Failure(description: "warcio could not read \(files): \(run)") }
        return try JSONDecoder().decode(Result.self, from: Data(run.stdout.utf8))
    }

    /// warcio failed to read a file.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
