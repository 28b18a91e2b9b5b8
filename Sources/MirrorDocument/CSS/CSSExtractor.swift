/// Finds the URLs in CSS: `url(…)` (quoted or not), `@import "x"` / `@import url(x)`, and
/// the strings of `image-set()` / `-webkit-image-set()`. `@font-face` sources are `url()`s and
/// keep their query and fragment (`font.eot?#iefix`).
///
/// Spans cover the URL text only: inside the quotes of a string, or the unquoted `url(` token's
/// URL without surrounding whitespace. Values have CSS escapes decoded. Model: wget2's
/// `libwget/css_url.c`, on a CSS Syntax Level 3 tokenizer.
public enum CSSExtractor {
    /// Extracts the references of a CSS file.
    ///
    /// - Parameters:
    ///   - bytes: The stylesheet.
    ///   - charset: Its character set (for decoding non-ASCII bytes in values).
    /// - Returns: References in source order, all of them page requisites.
    public static func extract(_ bytes: [UInt8], charset: Charset = .utf8) -> [Reference] {
        bytes.withUnsafeBufferPointer { buffer in
            var out: [Reference] = []
            extract(buffer, range: 0..<buffer.count, charset: charset, attributeQuote: nil,
                    element: nil, attribute: nil, into: &out)
            return out
        }
    }

    /// Extracts references from `bytes[range]`, appending to `out` with absolute spans.
    ///
    /// - Parameters:
    ///   - attributeQuote: The quoting of the HTML `style` attribute holding the CSS, or nil.
    ///   - element: The HTML element holding the CSS (`"style"`, or the element of a `style` attribute).
    ///   - attribute: `"style"` for a style attribute, nil otherwise.
    static func extract(
        _ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, charset: Charset, attributeQuote: Reference.Quote?,
        element: String?, attribute: String?, into out: inout [Reference]
    ) {
        guard mayHoldReferences(bytes, range: range) else { return }
        tokenize(bytes, range: range, charset: charset, attributeQuote: attributeQuote, element: element, attribute: attribute,
                 into: &out)
    }

    /// ``extract(_:range:charset:attributeQuote:element:attribute:into:)`` without the
    /// ``mayHoldReferences(_:range:)`` screen: every token is read.
    static func tokenize(
        _ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, charset: Charset, attributeQuote: Reference.Quote?,
        element: String?, attribute: String?, into out: inout [Reference]
    ) {
        var tokenizer = CSSTokenizer(bytes, range: range)
        /// Open blocks and functions: what each one is (a url/image-set function or other).
        var stack: [Opener] = []
        var importPending = false
        var urlFunctionHasString = false

        func add(_ token: CSSToken, quote: Reference.Quote, kind: Reference.Kind) {
            let value = CSSEscapes.decode(bytes, token.content, charset: charset)
            out.append(Reference(
                kind: kind, element: element, attribute: attribute, value: value, span: token.content,
                isRequisite: true, syntax: .css(quote: quote, attributeQuote: attributeQuote)))
        }

        while let token = tokenizer.next() {
            switch token.kind {
            case .whitespace:
                continue
            case .atKeyword:
                importPending = nameEquals(bytes, token.content, "import")
                continue
            case .url:
                if !token.content.isEmpty { add(token, quote: .none, kind: importPending ? .cssImport : .cssURL) }
            case .string:
                switch stack.last {
                case .url? where !urlFunctionHasString:
                    urlFunctionHasString = true
                    if !token.content.isEmpty { add(token, quote: token.quote, kind: importPending ? .cssImport : .cssURL) }
                    continue  // keep importPending until the function closes
                case .imageSet?:
                    if !token.content.isEmpty { add(token, quote: token.quote, kind: .cssURL) }
                default:
                    if importPending, stack.isEmpty, !token.content.isEmpty { add(token, quote: token.quote, kind: .cssImport) }
                }
            case .function:
                if nameEquals(bytes, token.content, "url") || nameEquals(bytes, token.content, "src") {
                    stack.append(.url)
                    urlFunctionHasString = false
                } else if nameEquals(bytes, token.content, "image-set") || nameEquals(bytes, token.content, "-webkit-image-set") {
                    stack.append(.imageSet)
                } else {
                    stack.append(.other)
                }
                continue
            case .openParen, .openSquare, .openCurly:
                stack.append(.other)
            case .closeParen, .closeSquare, .closeCurly:
                if !stack.isEmpty {
                    let closed = stack.removeLast()
                    if closed == .url { continue }
                }
            default:
                break
            }
            importPending = false
        }
    }

    private enum Opener: Equatable { case url, imageSet, other }

    /// Whether `bytes[range]` can hold a reference at all, by one pass over the bytes instead
    /// of the tokenizer (a page's inline stylesheet usually has none, and tokenizing it was 5 %
    /// of a crawl of the Git manual). False only when it certainly holds none: every reference
    /// comes from a `url(` token, or a string inside a function named `url`, `src`, `image-set`
    /// or `-webkit-image-set`, or a string after `@import`. The tokenizer compares those names
    /// byte for byte (escapes never spell them), and a name ends right before its `(`, which no
    /// escape can stand for. So when the bytes before no `(` end in `url`, `src` or `image-set`
    /// (in any case), and no `@` starts `@import`, there is no reference. (Only the end: where
    /// the name starts depends on what came before, as in `<!--url(`, where the `<!--` is a
    /// token of its own.) A comment or a string that merely contains such a name only costs the
    /// full pass.
    static func mayHoldReferences(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Bool {
        func endsWith(_ end: Int, _ name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            return end - range.lowerBound >= count && nameEquals(bytes, end - count..<end, name)
        }
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            if b == 0x28 {  // (
                if endsWith(i, "url") || endsWith(i, "src") || endsWith(i, "image-set") { return true }
            } else if b == 0x40, i + 7 <= range.upperBound, nameEquals(bytes, i + 1..<i + 7, "import") {  // @
                return true
            }
            i += 1
        }
        return false
    }

    /// ASCII case-insensitive comparison of a token's name with a lowercase literal.
    static func nameEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for (k, i) in range.enumerated() {
            let b = bytes[i]
            if ((b >= 0x41 && b <= 0x5A) ? b | 0x20 : b) != p[k] { return false }
        }
        return true
    }
}
