/// The result of extracting references from an HTML document.
public struct HTMLExtraction: Sendable {
    /// The bytes that every span indexes: the input itself, except for UTF-16 input, which is
    /// transcoded to UTF-8 (BOM dropped; see ``isTranscoded``).
    public var source: [UInt8]
    /// The detected character set of the input.
    public var charset: Charset
    /// Where ``charset`` came from.
    public var charsetSource: CharsetDetector.Source
    /// True when ``source`` is a UTF-8 transcoding of UTF-16 input. A rewriter then produces
    /// UTF-8, and whoever serves it must label it `charset=utf-8`.
    public var isTranscoded: Bool
    /// All references in source order.
    public var references: [Reference]

    /// The document's `<base href>`, if any (the first one counts, as in browsers).
    public var base: Reference? { references.first { $0.kind == .base } }
}
