/// Size limits enforced by ``HTTPRequestParser``.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Longest request line in bytes, without its line end (414 beyond).
    public var requestLineLength: Int
    /// Largest header section in bytes, line ends included (431 beyond).
    public var headerSectionSize: Int
    /// Most header fields (431 beyond).
    public var headerCount: Int
    /// Largest body of a non-GET/HEAD request that is read (into ``HTTPRequestHead/body``) so
    /// that the connection can stay open; larger bodies (and chunked ones) close the connection
    /// instead.
    public var discardableBodySize: Int

    /// Creates limits.
    /// - Parameters:
    ///   - requestLineLength: longest request line (default 8 KiB).
    ///   - headerSectionSize: largest header section (default 32 KiB).
    ///   - headerCount: most header fields (default 100).
    ///   - discardableBodySize: largest body discarded in place (default 64 KiB).
    public init(
        requestLineLength: Int = 8 * 1024, headerSectionSize: Int = 32 * 1024, headerCount: Int = 100,
        discardableBodySize: Int = 64 * 1024
    ) {
        self.requestLineLength = requestLineLength
        self.headerSectionSize = headerSectionSize
        self.headerCount = headerCount
        self.discardableBodySize = discardableBodySize
    }
}
