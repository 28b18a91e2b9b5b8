/// Makes a rendered page inert: the stored copy of a page that scripts built shows what they
/// built, and runs nothing, from disk and through any server.
///
/// It edits the bytes through the ``SpliceRewriter`` (every byte outside the edits stays as
/// it was), in three ways:
/// - every executable `<script>` gets `type="text/x-mtls-mirror-neutralised"`, a type no
///   browser runs or fetches (data blocks such as `application/json` or `application/ld+json`
///   are left alone: they do not run, and the page's content may be in them);
/// - every event-handler attribute (`onclick`, `onload`, … any `on` + letters) is removed;
/// - a `<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'">`
///   is inserted at the start of `<head>`, which stops anything the first two missed
///   (`javascript:` URLs, a handler in an unusual spelling), in `srcdoc` frames too.
///
/// The input is a DOM as a browser serialises it (``MirrorRender``'s capture): attribute
/// values quoted, text escaped, so a lexical scan finds every tag. Any other input is safe to
/// pass: the scan never produces an edit outside the document, and the policy still applies.
public enum ScriptNeutraliser {
    /// The `type` given to scripts so that they never run.
    public static let inertType = "text/x-mtls-mirror-neutralised"
    /// The policy inserted into `<head>`.
    public static let policy = #"<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'">"#

    /// What neutralising changed.
    public struct Result: Sendable, Equatable {
        /// The inert document.
        public var bytes: [UInt8]
        /// Scripts given the inert type.
        public var scripts: Int
        /// Event-handler attributes removed.
        public var handlers: Int
        /// Whether the policy was inserted (false when the document has no `<head>`).
        public var policyInserted: Bool
    }

    /// Script types browsers execute (WHATWG HTML §4.12.1.1: the JavaScript MIME type essence
    /// matches, plus `module`), lower-cased.
    static let executableTypes: Set<String> = [
        "", "module", "text/javascript", "application/javascript", "application/ecmascript", "application/x-ecmascript",
        "application/x-javascript", "text/ecmascript", "text/javascript1.0", "text/javascript1.1", "text/javascript1.2",
        "text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript", "text/livescript",
        "text/x-ecmascript", "text/x-javascript",
    ]

    /// Elements whose content is raw text in a browser's serialisation: skipped to their end tag.
    static let rawTextElements: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"]

    /// Neutralises `bytes` (UTF-8 or any ASCII-compatible charset).
    /// - Throws: ``DocumentError`` only if an edit fell outside the document, which the scan
    ///   never produces.
    public static func neutralise(_ bytes: [UInt8]) throws(DocumentError) -> Result {
        var edits: [Rewrite] = []
        var scripts = 0
        var handlers = 0
        var policyInserted = false
        bytes.withUnsafeBufferPointer { buffer in
            var storage: [HTMLTagLexer.Attribute] = []
            var index = 0
            let count = buffer.count
            while index < count {
                guard buffer[index] == UInt8(ascii: "<"), index + 1 < count else { index += 1; continue }
                if startsWith(buffer, at: index, "<!--") {
                    index = find(buffer, "-->", from: index + 4).map { $0 + 3 } ?? count
                    continue
                }
                guard let tag = HTMLTagLexer.lex(buffer, at: index, reusing: &storage) else { index += 1; continue }
                for attribute in tag.attributes where isEventHandler(HTMLTagLexer.name(of: attribute, in: buffer)) {
                    edits.append(Rewrite(span: attribute.fullSpan, replacement: []))
                    handlers += 1
                }
                if tag.name == "head", !policyInserted, tag.end < count {
                    edits.append(Rewrite(span: (tag.end + 1)..<(tag.end + 1), replacement: Array(policy.utf8)))
                    policyInserted = true
                }
                if tag.name == "script" {
                    if let type = tag.attribute("type") {
                        let value = String(decoding: buffer[type.valueSpan], as: UTF8.self)
                            .trimmingASCIISpaces().lowercased()
                        if executableTypes.contains(value) {
                            if type.quote == .none && type.valueSpan.isEmpty {  // `<script type>`: no value to replace
                                edits.append(Rewrite(span: type.fullSpan, replacement: Array(" type=\"\(inertType)\"".utf8)))
                            } else {
                                edits.append(Rewrite(span: type.valueSpan, replacement: Array(inertType.utf8)))
                            }
                            scripts += 1
                        }
                    } else {
                        let nameEnd = index + 1 + "script".utf8.count
                        edits.append(Rewrite(span: nameEnd..<nameEnd, replacement: Array(" type=\"\(inertType)\"".utf8)))
                        scripts += 1
                    }
                }
                index = tag.end + 1
                if rawTextElements.contains(tag.name) {
                    index = closingTag(buffer, tag.name, from: index) ?? count
                }
            }
        }
        edits.sort { $0.span.lowerBound < $1.span.lowerBound || ($0.span.lowerBound == $1.span.lowerBound && $0.span.isEmpty) }
        return Result(bytes: try SpliceRewriter.apply(edits, to: bytes), scripts: scripts, handlers: handlers,
                      policyInserted: policyInserted)
    }

    /// `on` followed by one or more ASCII letters: an event-handler content attribute.
    static func isEventHandler(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "o"), bytes[1] == UInt8(ascii: "n") else { return false }
        return bytes.dropFirst(2).allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    private static func startsWith(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard buffer.count - index >= count else { return false }
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where buffer[index + offset] != expected[offset] { return false }
        return true
    }

    private static func find(_ buffer: UnsafeBufferPointer<UInt8>, _ text: StaticString, from start: Int) -> Int? {
        var index = start
        while index < buffer.count {
            if startsWith(buffer, at: index, text) { return index }
            index += 1
        }
        return nil
    }

    /// The offset of `</name` (any case) at or after `from`.
    private static func closingTag(_ buffer: UnsafeBufferPointer<UInt8>, _ name: String, from start: Int) -> Int? {
        let nameBytes = Array(name.utf8)
        var index = start
        while index + 2 + nameBytes.count <= buffer.count {
            if buffer[index] == UInt8(ascii: "<"), buffer[index + 1] == UInt8(ascii: "/") {
                var matches = true
                for (offset, byte) in nameBytes.enumerated() where buffer[index + 2 + offset] | 0x20 != byte {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing ASCII whitespace.
    func trimmingASCIISpaces() -> String {
        let bytes = Array(utf8)
        var low = 0
        var high = bytes.count
        while low < high, HTMLTagLexer.isSpace(bytes[low]) { low += 1 }
        while high > low, HTMLTagLexer.isSpace(bytes[high - 1]) { high -= 1 }
        return String(decoding: bytes[low..<high], as: UTF8.self)
    }
}
