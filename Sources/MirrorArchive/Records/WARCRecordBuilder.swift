import Foundation
import MirrorCore
import MirrorHTTP

/// Builds the records of a WARC file from values: the `warcinfo` that starts a file, and the
/// `request` plus `response` (or `revisit`) pair of each captured exchange.
///
/// Field rules (WARC 1.1 §5 and §6, as warcio's `recordbuilder.py` applies them):
/// - every record has `WARC-Type`, `WARC-Record-ID` (`<urn:uuid:…>`), `WARC-Date` and
///   `Content-Length`; a record with a block has `Content-Type` and `WARC-Block-Digest`;
/// - `request`, `response` and `revisit` records name `WARC-Target-URI` (without angle brackets,
///   as 1.1 writes it), `WARC-IP-Address`, `WARC-Warcinfo-ID` and `WARC-Payload-Digest`; the
///   request is linked to its response by `WARC-Concurrent-To`, and both carry the capture time;
/// - a `revisit` names its `WARC-Profile`, and `WARC-Refers-To`, `WARC-Refers-To-Target-URI` and
///   `WARC-Refers-To-Date` of the capture it stands for; its block is the HTTP head only;
/// - a payload cut short carries `WARC-Truncated` with the reason.
public struct WARCRecordBuilder: Sendable {
    /// The revisit profiles of WARC 1.1 §6.7.
    public enum RevisitProfile: String, Sendable {
        case identicalPayloadDigest = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
        case serverNotModified = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
    }

    /// The records of one exchange.
    public struct Exchange: Sendable {
        public var request: WARCRecord
        /// A `response` or a `revisit`.
        public var response: WARCRecord
        /// Set when ``response`` is a revisit.
        public var profile: RevisitProfile?
        /// What a later revisit of this URL refers to: this response, or, for a revisit, the
        /// capture it refers to (nil when there is none).
        public var reference: CaptureReference?
        /// The response head as recorded (its status and the two fields the writer needs).
        public var responseHead: RecordedHead
        /// The exchange's `WARC-Date`, and the response record's `WARC-Payload-Digest`.
        public var date: String
        public var payloadDigest: String?
    }

    /// Header names (lower case) whose values are replaced in request and response heads.
    public var redactedHeaders: Set<String>
    /// `WARC-Warcinfo-ID` of the file the records go into.
    public var warcinfoID: String?

    /// The header list redacted unless the user opts in.
    public static let defaultRedactedHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    public init(redactedHeaders: Set<String> = WARCRecordBuilder.defaultRedactedHeaders, warcinfoID: String? = nil) {
        self.redactedHeaders = Set(redactedHeaders.map { $0.lowercased() })
        self.warcinfoID = warcinfoID
    }

    /// The `warcinfo` record that starts a file: `application/warc-fields` naming the tool, its
    /// version and the run's options (the caller passes them without secrets).
    /// - Parameters:
    ///   - filename: the WARC file's final name (`WARC-Filename`).
    ///   - date: when the file was started.
    ///   - info: the fields of the block, in order.
    public func warcinfo(filename: String, date: Date, info: WARCFields, id: String = WARCRecord.newID()) -> WARCRecord {
        var fields = WARCFields()
        fields.appendClean("WARC-Type", WARCRecordType.warcinfo.rawValue)
        fields.appendClean("WARC-Record-ID", id)
        fields.appendClean("WARC-Date", WARCDate.string(date))
        fields.append("WARC-Filename", filename)
        let block = info.serialized
        fields.appendClean("WARC-Block-Digest", WARCDigest.of(block))
        fields.appendClean("Content-Type", "application/warc-fields")
        return WARCRecord(type: .warcinfo, fields: fields, head: [], payload: .memory(block))
    }

    /// The request and response (or revisit) records of an exchange.
    ///
    /// A `304` becomes a `server-not-modified` revisit; a complete response whose payload digest
    /// is the one `previous` recorded becomes an `identical-payload-digest` revisit (whatever its
    /// status: the revisit keeps its own head, so a replayed `404` stays one); anything else is
    /// a `response` with the payload.
    /// - Parameters:
    ///   - capture: the exchange.
    ///   - previous: the last full capture of the same URL, if the archive has one.
    /// - Throws: ``ArchiveError`` when a spooled payload cannot be read for its block digest.
    public func exchange(_ capture: HTTPCapture, previous: CaptureReference?) throws(ArchiveError) -> Exchange {
        let date = WARCDate.string(capture.date)
        let responseID = WARCRecord.newID()
        let requestHead = RecordedHead(raw: capture.requestHead, redacted: redactedHeaders)
        let responseHead = RecordedHead(raw: capture.responseHead, redacted: redactedHeaders)
        let payloadDigest = WARCDigest.label(hex: capture.payloadSHA256)

        var profile: RevisitProfile?
        if capture.status == 304 {
            profile = .serverNotModified
        } else if capture.truncation == nil, let previous, previous.payloadDigest == payloadDigest {
            profile = .identicalPayloadDigest
        }

        var fields = common(type: profile == nil ? .response : .revisit, id: responseID, date: date, capture: capture)
        let response: WARCRecord
        let reference: CaptureReference?
        if let profile {
            fields.appendClean("WARC-Profile", profile.rawValue)
            if let previous {
                fields.append("WARC-Refers-To", previous.recordID)
                fields.append("WARC-Refers-To-Target-URI", previous.url)
                fields.append("WARC-Refers-To-Date", previous.date)
            }
            // identical-payload-digest: the digest compared; server-not-modified: the payload the
            // server affirmed, which is the referred capture's.
            if profile == .identicalPayloadDigest {
                fields.appendClean("WARC-Payload-Digest", payloadDigest)
            } else if let previous {
                fields.appendClean("WARC-Payload-Digest", previous.payloadDigest)
            }
            fields.appendClean("WARC-Block-Digest", WARCDigest.of(responseHead.bytes))
            fields.appendClean("Content-Type", "application/http;msgtype=response")
            response = WARCRecord(type: .revisit, fields: fields, head: responseHead.bytes, payload: .memory([]))
            reference = previous
        } else {
            fields.appendClean("WARC-Payload-Digest", payloadDigest)
            fields.appendClean("WARC-Block-Digest", try Self.blockDigest(head: responseHead.bytes, payload: capture.payload))
            if let truncation = capture.truncation { fields.appendClean("WARC-Truncated", truncation.rawValue) }
            fields.appendClean("Content-Type", "application/http;msgtype=response")
            response = WARCRecord(type: .response, fields: fields, head: responseHead.bytes, payload: capture.payload)
            // A truncated payload is not one a later capture can be said to repeat.
            reference = capture.truncation == nil
                ? CaptureReference(url: capture.url, date: date, recordID: responseID, payloadDigest: payloadDigest) : nil
        }

        var requestFields = common(type: .request, id: WARCRecord.newID(), date: date, capture: capture)
        requestFields.appendClean("WARC-Concurrent-To", responseID)
        // A request body (a POST a rendered page sent) is the request record's payload.
        let body = capture.requestBody
        requestFields.appendClean("WARC-Payload-Digest", body.isEmpty ? WARCDigest.empty : WARCDigest.of(body))
        requestFields.appendClean("WARC-Block-Digest", WARCDigest.of(requestHead.bytes + body))
        requestFields.appendClean("Content-Type", "application/http;msgtype=request")
        let request = WARCRecord(type: .request, fields: requestFields, head: requestHead.bytes, payload: .memory(body))
        let recordedDigest: String? = profile == .serverNotModified ? previous?.payloadDigest : payloadDigest
        return Exchange(request: request, response: response, profile: profile, reference: reference, responseHead: responseHead,
                        date: date, payloadDigest: recordedDigest)
    }

    /// The fields every record of an exchange starts with.
    private func common(type: WARCRecordType, id: String, date: String, capture: HTTPCapture) -> WARCFields {
        var fields = WARCFields()
        fields.appendClean("WARC-Type", type.rawValue)
        fields.appendClean("WARC-Record-ID", id)
        fields.appendClean("WARC-Date", date)
        fields.append("WARC-Target-URI", capture.url)
        if let ip = capture.remoteIP, !ip.isEmpty { fields.append("WARC-IP-Address", ip) }
        if let warcinfoID { fields.appendClean("WARC-Warcinfo-ID", warcinfoID) }
        // WARC-Protocol, from the IIPC proposal that Heritrix and warcprox write (warc-specifications #42).
        fields.appendClean("WARC-Protocol", capture.httpVersion == "2" ? "h2" : capture.httpVersion == "3" ? "h3" : "http/" + capture.httpVersion)
        if let tls = capture.tlsVersion, tls.hasPrefix("TLSv") { fields.appendClean("WARC-Protocol", "tls/" + tls.dropFirst(4)) }
        return fields
    }

    /// `sha256:` of the head followed by the payload.
    static func blockDigest(head: [UInt8], payload: CapturedPayload) throws(ArchiveError) -> String {
        let hasher = SHA256Stream()
        head.withUnsafeBytes { hasher.update($0) }
        try payload.forEachChunk { chunk throws(ArchiveError) in hasher.update(chunk) }
        return WARCDigest.label(hex: hasher.finalizeHex())
    }
}
