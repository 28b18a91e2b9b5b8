import CLibXML2
import CMirrorShims

/// Runs libxml2's HTML parser over a document in SAX mode and reports each start tag's name,
/// its attribute names, and the byte offset where libxml2 finished reading its attributes.
///
/// libxml2 decides which `<…>` are real elements (not inside comments, scripts, CDATA); it
/// does not report attribute offsets, which ``HTMLExtractor`` recovers from the reported end
/// offset. The scanner is fed an ASCII-only copy of the document of the same length (see
/// ``HTMLExtractor``), so libxml2 never converts encodings and its offsets are offsets into the
/// original bytes. A `final class` owns the parser context and frees it in `deinit`; one
/// scanner parses one document on one thread.
final class LibXMLElementScanner {
    /// Called for each start tag: lowercased name, lowercased attribute names, end offset.
    typealias Handler = (_ name: UnsafePointer<xmlChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ end: Int) -> Void

    private let context: htmlParserCtxtPtr
    private let handler: Handler

    /// The options of the brief and C-INTEROP-NOTES: recover, no network, no implied elements,
    /// no default DTD, silence, and ignore `<meta charset>` (we already decoded to ASCII).
    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_NODEFDTD.rawValue | HTML_PARSE_NOIMPLIED.rawValue
            | HTML_PARSE_IGNORE_ENC.rawValue)

    /// Creates a parser over `ascii`, which must stay alive until ``run()`` returns.
    ///
    /// - Throws: `DocumentError.parserUnavailable` when libxml2 cannot be opened or cannot create a context;
    ///   `DocumentError.documentTooLarge` past 2 GiB.
    init(ascii: UnsafeBufferPointer<UInt8>, handler: @escaping Handler) throws(DocumentError) {
        // libxml2 is opened at run time (``LibXML2``), and initialised there.
        if let reason = LibXML2.unavailableReason { throw .parserUnavailable(reason: reason) }
        guard ascii.count < Int(Int32.max) else { throw .documentTooLarge(bytes: ascii.count) }
        guard let base = ascii.baseAddress, !ascii.isEmpty else { throw .parserUnavailable(reason: "empty document") }
        let created = base.withMemoryRebound(to: CChar.self, capacity: ascii.count) { chars in
            CMirrorShims_htmlCreateMemoryParserCtxt(chars, Int32(ascii.count))
        }
        guard let created else { throw .parserUnavailable(reason: "htmlCreateMemoryParserCtxt returned NULL") }
        self.context = created
        self.handler = handler
    }

    deinit {
        if let doc = context.pointee.myDoc { CMirrorShims_xmlFreeDoc(doc) }
        CMirrorShims_htmlFreeParserCtxt(context)
    }

    /// Parses the whole document, calling the handler for every start tag.
    func run() {
        guard let sax = context.pointee.sax else { return }
        // Only our callbacks: no tree is built. Structured errors go to a no-op so that
        // nothing is printed (the plain `error` callback is variadic and cannot be Swift).
        var handlerTable = htmlSAXHandler()
        handlerTable.startElement = { ctx, name, attributes in
            guard let ctx, let name else { return }
            let parser = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let owner = parser.pointee._private else { return }
            let scanner = Unmanaged<LibXMLElementScanner>.fromOpaque(owner).takeUnretainedValue()
            scanner.handler(name, attributes, Int(CMirrorShims_xmlByteConsumed(parser)))
        }
        handlerTable.serror = { _, _ in }
        handlerTable.initialized = XML_SAX2_MAGIC
        sax.pointee = handlerTable
        context.pointee.userData = UnsafeMutableRawPointer(context)
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        _ = CMirrorShims_htmlCtxtUseOptions(context, Self.options)
        _ = withExtendedLifetime(self) { CMirrorShims_htmlParseDocument(context) }
        context.pointee._private = nil
    }
}
