import CLibXML2

/// Extracts references from HTML with libxml2, reporting exact byte spans in the original
/// document. It never fetches and never resolves URLs. Model: wget2's `libwget/html_url.c`.
///
/// How offsets stay exact: libxml2 parses an ASCII-only copy of the document of the same
/// length (bytes ≥ 0x80 and control bytes become `x`, form feed becomes a space), so it
/// never transcodes and its byte positions equal positions in the original. For each start
/// tag libxml2 reports, the extractor takes libxml2's input position (where the attributes
/// end), finds the tag's `<` by searching backwards, and re-lexes the raw tag with
/// ``HTMLTagLexer``, accepting a candidate only when the lexer ends where libxml2 did and
/// libxml2's attribute names appear in the lexer's list in order. Attribute values, `<style>`
/// text and `style` attributes are then read from the original bytes.
///
/// libxml2 itself parses a shorter copy of that proxy, the ``CompactProxy``, in which text and
/// attribute values it cannot read as markup are collapsed, and after the `<body>` of a page
/// whose reading is certain (``CertainMarkup``) only the tags the collector needs are left;
/// its offsets are mapped back to the proxy before the tag is located.
///
/// UTF-16 documents (by BOM) are transcoded to UTF-8 first; spans index
/// ``HTMLExtraction/source``, and ``HTMLExtraction/isTranscoded`` is true.
public enum HTMLExtractor {
    /// Extracts all references of an HTML document, but for fragment-only values (`#top`):
    /// they point into the document itself and every rewrite leaves them as they are, so they
    /// are not reported (a `<base href>` always is). On single-page manuals they are most of
    /// the links: 70 % of the 17,000 in node's `all.html`.
    ///
    /// - Parameters:
    ///   - bytes: The document as received.
    ///   - contentType: The HTTP `Content-Type` header, whose `charset` parameter wins over
    ///     `<meta>` declarations (a BOM wins over both).
    /// - Returns: The references and the charset.
    /// - Throws: `DocumentError.parserUnavailable` when libxml2 cannot create a parser,
    ///   `DocumentError.documentTooLarge` for documents of 2 GiB or more.
    public static func extract(_ bytes: [UInt8], contentType: String? = nil) throws(DocumentError) -> HTMLExtraction {
        try extract(bytes, contentType: contentType, compacting: true)
    }

    /// ``extract(_:contentType:)``, with libxml2 parsing either the ``CompactProxy`` (as in
    /// production) or the full-length proxy (for tests that show both find the same).
    static func extract(_ bytes: [UInt8], contentType: String?, compacting: Bool) throws(DocumentError) -> HTMLExtraction {
        let (charset, charsetSource) = bytes.withUnsafeBufferPointer { CharsetDetector.detect($0, contentType: contentType) }
        var source = bytes
        var readCharset = charset
        var transcoded = false
        if charset.isUTF16 {
            source = transcodeUTF16(bytes, bigEndian: charset == .utf16BE)
            readCharset = .utf8
            transcoded = true
        }
        var result = HTMLExtraction(source: source, charset: charset, charsetSource: charsetSource,
                                    isTranscoded: transcoded, references: [])
        guard !source.isEmpty else { return result }
        guard source.count < Int(Int32.max) else { throw .documentTooLarge(bytes: source.count) }
        let ascii = asciiProxy(source)
        result.references = try source.withUnsafeBufferPointer { (original) throws(DocumentError) -> [Reference] in
            try ascii.withUnsafeBufferPointer { (proxy) throws(DocumentError) -> [Reference] in
                if compacting {
                    let compact = CompactProxy(proxy)
                    if let references = try compact.bytes.withUnsafeBufferPointer({ (parsed) throws(DocumentError) in
                        try collect(original: original, proxy: proxy, parsed: parsed, compact: compact, charset: readCharset)
                    }) {
                        return references
                    }
                }
                return try collect(original: original, proxy: proxy, parsed: proxy, compact: nil, charset: readCharset) ?? []
            }
        }
        return result
    }

    /// Runs libxml2 over `parsed` (the proxy itself, or its `compact` copy) and collects the
    /// references of the tags it reports.
    ///
    /// - Returns: the references; nil when libxml2 read a collapsed value of the compact copy as
    ///   an attribute name (``CompactProxy/misread(_:)``), and the proxy must be parsed instead.
    private static func collect(
        original: UnsafeBufferPointer<UInt8>, proxy: UnsafeBufferPointer<UInt8>, parsed: UnsafeBufferPointer<UInt8>,
        compact: CompactProxy?, charset: Charset
    ) throws(DocumentError) -> [Reference]? {
        let collector = HTMLReferenceCollector(original: original, proxy: proxy, charset: charset)
        var misread = false
        var cursor = 0
        var skippedCursor = 0
        let skipped = compact?.skippedTagEnds ?? []
        let scanner = try LibXMLElementScanner(ascii: parsed) { name, attributes, end in
            guard let compact else {
                collector.startTag(name: name, attributes: attributes, end: end)
                return
            }
            if CompactProxy.misread(attributes) { misread = true }
            let proxyEnd = compact.originalOffset(end, cursor: &cursor)
            // The tags the skim left out before this one, as libxml2 reports them in the proxy.
            while skippedCursor < skipped.count, Int(skipped[skippedCursor]) < proxyEnd {
                collector.skippedTag(end: Int(skipped[skippedCursor]))
                skippedCursor += 1
            }
            collector.startTag(name: name, attributes: attributes, end: proxyEnd)
        }
        scanner.run()
        guard !misread else { return nil }
        var references = collector.takeReferences()
        removeOverlaps(&references)
        return references
    }

    /// Keeps the promise of source order without overlap when libxml2's error recovery reports
    /// a tag inside raw text that an earlier element already covered (`<style/>` followed by
    /// `<style>` with no `</style>`: both claimed the same CSS). Found by fuzzing. In place: a
    /// copy of the list would double it at the moment a large page's extraction peaks (28,000
    /// references, 3.6 MB, on CMake's `genindex.html`).
    static func removeOverlaps(_ references: inout [Reference]) {
        var kept = 0
        for index in references.indices {
            if kept > 0, references[index].span.lowerBound < references[kept - 1].span.upperBound { continue }
            if index != kept { references.swapAt(kept, index) }
            kept += 1
        }
        references.removeLast(references.count - kept)
    }

    /// Maps each byte to what libxml2 should see: ASCII stays (except controls), everything
    /// else becomes `x`, form feed a space. The UTF-8 BOM becomes spaces.
    private static let proxyTable: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
        switch b {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E: UInt8(b)
        case 0x0C: 0x20
        default: 0x78
        }
    }

    static func asciiProxy(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](unsafeUninitializedCapacity: bytes.count) { dst, initialized in
            bytes.withUnsafeBufferPointer { src in
                guard let source = src.baseAddress, let target = dst.baseAddress else { return }
                target.initialize(from: source, count: src.count)
                proxyTable.withUnsafeBufferPointer { table in
                    // Eight bytes at a time: most words of a page are printable ASCII, which stays.
                    let raw = UnsafeRawPointer(source)
                    var i = 0
                    while i + 8 <= src.count {
                        if !isPlainWord(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                            for j in i..<(i + 8) { target[j] = table[Int(source[j])] }
                        }
                        i += 8
                    }
                    while i < src.count {
                        target[i] = table[Int(source[i])]
                        i += 1
                    }
                }
            }
            initialized = bytes.count
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            out[0] = 0x20; out[1] = 0x20; out[2] = 0x20
        }
        return out
    }

    /// Whether all eight bytes of `word` are in 0x20...0x7E, which ``proxyTable`` keeps as they
    /// are. (Bit tricks: a byte below 0x20, or equal to 0x7F, borrows into its top bit.)
    @inline(__always)
    static func isPlainWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if word & highs != 0 { return false }
        let below20 = (word &- ones &* 0x20) & ~word & highs
        let x = word ^ (ones &* 0x7F)
        let equal7F = (x &- ones) & ~x & highs
        return below20 | equal7F == 0
    }

    /// UTF-16 (after a 2-byte BOM) to UTF-8, with U+FFFD for unpaired surrogates.
    static func transcodeUTF16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 2
        while i + 1 < bytes.count {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }
}
