/// The last full capture of a URL, which a later `revisit` record refers to.
public struct CaptureReference: Sendable, Equatable {
    /// `WARC-Target-URI` of the response record.
    public var url: String
    /// Its `WARC-Date`.
    public var date: String
    /// Its `WARC-Record-ID`.
    public var recordID: String
    /// Its `WARC-Payload-Digest`.
    public var payloadDigest: String

    public init(url: String, date: String, recordID: String, payloadDigest: String) {
        self.url = url
        self.date = date
        self.recordID = recordID
        self.payloadDigest = payloadDigest
    }
}
