/// The element/attribute table: which attributes of which elements hold URLs, of what kind.
extension HTMLReferenceCollector {
    /// Turns one located start tag into references.
    func emit(_ tag: HTMLTagLexer.Tag) {
        let first = referencesStorage.count
        defer {
            // The table below visits attributes by kind, not by position (`<video poster src>`);
            // keep the promised source order.
            if referencesStorage.count - first > 1 { referencesStorage[first...].sort { $0.span.lowerBound < $1.span.lowerBound } }
        }
        let integrity = tag.attribute("integrity")?.fullSpan
        func url(_ attributeName: String, _ kind: Reference.Kind, requisite: Bool) {
            guard let a = tag.attribute(attributeName) else { return }
            let span = trimmed(a.valueSpan)
            // A fragment-only value (`#top`) points into the document itself: every rewrite
            // leaves it as it is, so it is not reported (``CertainMarkup`` leaves `<a>` tags
            // with no other link out of libxml2's copy for the same reason).
            guard !span.isEmpty, kind == .base || original[span.lowerBound] != 0x23 else { return }
            append(Reference(
                kind: kind, element: tag.name, attribute: attributeName, value: decoded(span), span: span,
                isRequisite: requisite, syntax: .htmlAttribute(quote: a.quote), attributeSpan: a.fullSpan,
                integritySpan: integrity))
        }
        func srcset(_ attributeName: String, _ kind: Reference.Kind) {
            guard let a = tag.attribute(attributeName) else { return }
            for candidate in SrcsetParser.parse(original, range: a.valueSpan) {
                append(Reference(
                    kind: kind, element: tag.name, attribute: attributeName, value: decoded(candidate.span),
                    span: candidate.span, isRequisite: true, syntax: .srcsetCandidate(attributeQuote: a.quote),
                    attributeSpan: a.fullSpan, integritySpan: integrity))
            }
        }
        func svgHref(_ kind: Reference.Kind) {
            url("href", kind, requisite: true)
            url("xlink:href", kind, requisite: true)
        }

        switch tag.name {
        case "a":
            url("href", .link, requisite: false)
            // An SVG 1.1 link inside inline SVG: `<svg><a xlink:href="page.html">`.
            url("xlink:href", .link, requisite: false)
        case "area": url("href", .link, requisite: false)
        case "link": linkElement(tag, url: url, srcset: srcset)
        case "img":
            url("src", .image, requisite: true)
            srcset("srcset", .image)
        case "source":
            url("src", .media, requisite: true)
            srcset("srcset", .image)
        case "video":
            url("src", .media, requisite: true)
            url("poster", .poster, requisite: true)
        case "audio", "track": url("src", .media, requisite: true)
        case "script":
            url("src", .script, requisite: true)
            svgHref(.script)
        case "iframe", "frame": url("src", .frame, requisite: true)
        case "embed": url("src", .embed, requisite: true)
        case "object": url("data", .object, requisite: true)
        case "input":
            if let type = tag.attribute("type"), decoded(trimmed(type.valueSpan)).lowercased() == "image" {
                url("src", .image, requisite: true)
            }
        case "body", "table", "td", "th": url("background", .background, requisite: true)
        case "base": url("href", .base, requisite: false)
        case "form": url("action", .formAction, requisite: false)
        case "use": svgHref(.svgUse)
        case "image", "feimage": svgHref(.svgImage)
        case "meta": metaRefresh(tag)
        case "style": styleElement(tag)
        // An element without a rule of its own links with an `href`, as `<a>` does.
        default: url("href", .link, requisite: false)
        }
        if let style = tag.attribute("style"), !style.valueSpan.isEmpty { styleAttribute(style, element: tag.name) }
    }

    private func linkElement(
        _ tag: HTMLTagLexer.Tag, url: (String, Reference.Kind, Bool) -> Void,
        srcset: (String, Reference.Kind) -> Void
    ) {
        let rels = tag.attribute("rel").map { decoded($0.valueSpan).lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }) } ?? []
        let rel = Set(rels.map(String.init))
        let kind: Reference.Kind
        var requisite = true
        if rel.contains("stylesheet") {
            kind = .stylesheet
        } else if rel.contains("icon") || rel.contains("apple-touch-icon") || rel.contains("apple-touch-icon-precomposed")
            || rel.contains("mask-icon")
        {
            kind = .icon
        } else if rel.contains("modulepreload") {
            kind = .script
        } else if rel.contains("preload") {
            kind = .preload
        } else if rel.contains("prefetch") || rel.contains("prerender") {
            kind = .preload
            requisite = false
        } else if rel.contains("manifest") {
            kind = .manifest
        } else {
            kind = .other
            requisite = false
        }
        url("href", kind, requisite)
        if rel.contains("preload") { srcset("imagesrcset", .image) }
    }

    private func metaRefresh(_ tag: HTMLTagLexer.Tag) {
        guard let equiv = tag.attribute("http-equiv"), decoded(trimmed(equiv.valueSpan)).lowercased() == "refresh",
            let content = tag.attribute("content"),
            let found = MetaRefreshParser.parse(original, range: content.valueSpan)
        else { return }
        append(Reference(
            kind: .metaRefresh, element: "meta", attribute: "content", value: decoded(found.span), span: found.span,
            isRequisite: false, syntax: .metaRefresh(attributeQuote: content.quote, urlQuote: found.quote),
            attributeSpan: content.fullSpan))
    }

    /// CSS in a `style` attribute is read after entity decoding (`url(&quot;x&quot;)` is a
    /// quoted URL); spans are mapped back to the raw bytes.
    private func styleAttribute(_ style: HTMLTagLexer.Attribute, element: String) {
        var hasAmp = false
        for i in style.valueSpan where original[i] == 0x26 { hasAmp = true; break }
        guard hasAmp else {
            CSSExtractor.extract(
                original, range: style.valueSpan, charset: charset, attributeQuote: style.quote,
                element: element, attribute: "style", into: &referencesStorage)
            return
        }
        let (decoded, map) = HTMLEntities.decodeWithMap(original, style.valueSpan)
        var found: [Reference] = []
        decoded.withUnsafeBufferPointer { buffer in
            CSSExtractor.extract(
                buffer, range: 0..<buffer.count, charset: charset, attributeQuote: style.quote,
                element: element, attribute: "style", into: &found)
        }
        for var reference in found {
            reference.span = map[reference.span.lowerBound]..<map[reference.span.upperBound]
            append(reference)
        }
    }

    /// `<style>` text runs to the first `</style` (libxml2 and browsers treat it as raw text).
    private func styleElement(_ tag: HTMLTagLexer.Tag) {
        guard tag.end < original.count else { return }
        let start = tag.end + 1
        let end = closingTag("style", after: tag.end)
        CSSExtractor.extract(original, range: start..<end, charset: charset, attributeQuote: nil,
                             element: "style", attribute: nil, into: &referencesStorage)
    }
}
