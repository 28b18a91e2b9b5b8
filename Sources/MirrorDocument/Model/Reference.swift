/// One URL found in an HTML or CSS document, with the exact bytes it occupies.
///
/// The document layer never fetches and never resolves URLs: a reference carries the decoded
/// `value` as written (relative or absolute) and the byte `span` of its raw text in the source
/// buffer, so that a rewriter can splice a replacement into the original bytes.
public struct Reference: Sendable, Hashable {
    /// What the referenced resource is used for.
    public var kind: Kind
    /// The element that holds the reference (lowercased, e.g. `"img"`), or nil in a CSS file.
    public var element: String?
    /// The attribute that holds it (lowercased, e.g. `"srcset"`), or nil for element text or CSS.
    public var attribute: String?
    /// The URL as written, with HTML entities and CSS escapes decoded. Not resolved.
    public var value: String
    /// The bytes of the raw value in the source buffer, without surrounding quotes or `url(`.
    public var span: Range<Int>
    /// True for page requisites (images, styles, scripts, fonts, media, icons, frames, SVG
    /// sprites, posters, preloads); false for navigation links such as `<a href>`.
    public var isRequisite: Bool
    /// How the raw text is embedded, which decides how a replacement must be escaped.
    public var syntax: Syntax
    /// The whole attribute (leading whitespace, name, `=`, value and quotes), when the reference
    /// is an HTML attribute value. A rewriter deletes this span to neutralise `<base href>`.
    public var attributeSpan: Range<Int>?
    /// The whole `integrity="…"` attribute of the same element (leading whitespace included), if
    /// any. A rewriter drops it when it rewrites the referenced bytes.
    public var integritySpan: Range<Int>?

    /// Creates a reference; see the properties for the meaning of each field.
    public init(
        kind: Kind, element: String?, attribute: String?, value: String, span: Range<Int>,
        isRequisite: Bool, syntax: Syntax, attributeSpan: Range<Int>? = nil, integritySpan: Range<Int>? = nil
    ) {
        self.kind = kind
        self.element = element
        self.attribute = attribute
        self.value = value
        self.span = span
        self.isRequisite = isRequisite
        self.syntax = syntax
        self.attributeSpan = attributeSpan
        self.integritySpan = integritySpan
    }
}

extension Reference {
    /// What a referenced resource is used for.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A navigation link: `<a href>`, `<area href>`.
        case link
        /// A stylesheet: `<link rel=stylesheet>`.
        case stylesheet
        /// An image: `<img src>`, `srcset`, `<input type=image>`.
        case image
        /// A script: `<script src>`, `<link rel=modulepreload>`.
        case script
        /// A frame document: `<iframe src>`, `<frame src>`.
        case frame
        /// Audio, video or a text track: `<video src>`, `<audio src>`, `<track src>`, `<source src>`.
        case media
        /// A video poster image.
        case poster
        /// A favicon or touch icon.
        case icon
        /// A web app manifest.
        case manifest
        /// `<link rel=preload|prefetch>`.
        case preload
        /// A CSS `@import`.
        case cssImport
        /// A CSS `url(…)` or `image-set()` string (backgrounds, fonts, cursors).
        case cssURL
        /// The URL in `<meta http-equiv=refresh content="5; URL=…">`.
        case metaRefresh
        /// SVG `<use href>` (sprites).
        case svgUse
        /// SVG `<image href>`.
        case svgImage
        /// `<object data>`.
        case object
        /// `<embed src>`.
        case embed
        /// The legacy `background` attribute of `<body>`, `<table>`, `<td>`, `<th>`.
        case background
        /// `<base href>`: the crawler resolves the page's other references against it.
        case base
        /// A form target: `<form action>` (not a requisite).
        case formAction
        /// Another `<link>` (alternate, canonical, …): not a requisite.
        case other
    }

    /// The quoting around a raw value.
    public enum Quote: Sendable, Hashable {
        /// No quotes (an unquoted attribute value or an unquoted `url(…)`).
        case none
        /// `"…"`.
        case double
        /// `'…'`.
        case single
    }

    /// How the raw text of a reference is embedded in its document.
    public enum Syntax: Sendable, Hashable {
        /// The whole value of an HTML attribute.
        case htmlAttribute(quote: Quote)
        /// One URL of a `srcset` list inside an HTML attribute with the given quoting.
        case srcsetCandidate(attributeQuote: Quote)
        /// The URL inside a meta refresh `content` attribute; `urlQuote` is the optional quoting
        /// inside the content (`URL='x.html'`).
        case metaRefresh(attributeQuote: Quote, urlQuote: Quote)
        /// CSS: `quote` is `.none` for an unquoted `url(…)` token, otherwise a CSS string's
        /// quote. `attributeQuote` is non-nil when the CSS sits in a `style` attribute.
        case css(quote: Quote, attributeQuote: Quote?)
    }
}
