import MirrorCore
import MirrorDocument
import MirrorStore

/// Decides how each reference of a mirrored document is rewritten. Pure: it neither fetches
/// nor touches files.
///
/// For each reference, after resolving it against the document's base URL:
/// - **mirrored** (the lookup returns a local path): a relative link from the document's own
///   file to that file, fragment kept (``MirrorStore/PathMapper/relativeLink(from:to:fragment:)``),
///   unless the value is a relative link that already leads there (`../mod/core.html` where
///   `core.html` would do; ``MirrorStore/PathMapper/leadsTo(_:from:to:fragment:)``): that one is
///   left as written;
/// - **not mirrored**, http(s): the absolute URL, fragment kept, so the copy never holds a
///   relative link to a missing file. A value that is already an absolute `http(s):` URL is
///   left byte-for-byte as it is (so its `integrity` attribute survives); relative and
///   scheme-relative (`//host/x`) values are made absolute. The URL is listed in
///   ``LinkPlan/external``;
/// - **left unchanged**: empty values, fragment-only values (`#top`), other schemes (`data:`,
///   `javascript:`, `mailto:`, `tel:`…), values that do not resolve to a valid URL, and
///   `<base href>` itself (the rewriter removes it with `neutraliseBase`, because rewritten
///   links are relative to the local file).
///
/// `srcset` candidates are separate references already, one per URL.
public enum LinkPlanner {
    /// Plans the rewrite of one document's references.
    /// - Parameters:
    ///   - references: the document's references, as extracted (indices are into this array).
    ///   - documentPath: the document's own path relative to the site folder.
    ///   - baseURL: the URL relative references resolve against: the document's final URL, or
    ///     its `<base href>` resolved against that.
    ///   - localPath: the local path (relative to the site folder) of a mirrored URL, given
    ///     without fragment, or nil when it is not mirrored.
    /// - Returns: the replacements and the unmirrored URLs.
    public static func plan(
        references: [Reference], documentPath: String, baseURL: WebURL, localPath: (WebURL) -> String?
    ) -> LinkPlan {
        var plan = LinkPlan()
        var listed = Set<String>()
        for (index, reference) in references.enumerated() where reference.kind != .base {
            guard let target = target(of: reference.value, baseURL: baseURL) else { continue }
            let (text, external) = replacement(for: target, documentPath: documentPath, localPath: localPath, written: reference.value)
            if let text { plan.replacements[index] = text }
            if let external, listed.insert(external.string).inserted { plan.external.append(external) }
        }
        return plan
    }

    /// The first step of ``plan(references:documentPath:baseURL:localPath:)`` for one value:
    /// what it points at, or nil when it is left unchanged whatever is mirrored (empty,
    /// fragment-only, another scheme).
    /// - Parameters:
    ///   - value: the reference's decoded value (``MirrorDocument/Reference/value``).
    ///   - baseURL: the URL relative references resolve against.
    public static func target(of value: String, baseURL: WebURL) -> LinkTarget? {
        let trimmed = value.drop { isHTMLSpace($0) }
        if trimmed.allSatisfy(isHTMLSpace) || trimmed.hasPrefix("#") { return nil }
        let scheme = WebURL.scheme(of: value)
        if let scheme, scheme != "http", scheme != "https" { return nil }
        guard let resolved = try? baseURL.resolving(value) else { return scheme == nil ? .invalid : nil }
        return .url(resolved, writtenAbsolute: isAbsolute(trimmed, scheme: scheme))
    }

    /// The second step: the text to write for a target, once the local paths are known.
    /// - Parameters:
    ///   - target: from ``target(of:baseURL:)``.
    ///   - documentPath: the document's own path relative to the site folder.
    ///   - localPath: the local path of a mirrored URL (given without fragment), or nil.
    ///   - written: the value as the document has it, when known: a relative link that already
    ///     leads to the local copy is left as written (``MirrorStore/PathMapper/leadsTo(_:from:to:fragment:)``).
    /// - Returns: the new text (nil: leave the value as written), and the URL when it is not
    ///   mirrored (for the report).
    public static func replacement(
        for target: LinkTarget, documentPath: String, localPath: (WebURL) -> String?, written: String? = nil
    ) -> (text: String?, external: WebURL?) {
        switch target {
        case .invalid:
            return ("about:invalid", nil)
        case .url(let resolved, let writtenAbsolute):
            let bare = resolved.withoutFragment
            let local = localPath(bare)
            if let local, let written, PathMapper.leadsTo(written, from: documentPath, to: local, fragment: resolved.fragment) {
                return (nil, nil)
            }
            let text = Self.text(documentPath: documentPath, localPath: local, url: bare.string, fragment: resolved.fragment,
                                 writtenAbsolute: writtenAbsolute)
            return (text, local == nil ? bare : nil)
        }
    }

    /// The text for a resolved URL: a relative link to its local copy when mirrored; else the
    /// absolute URL, or nil (unchanged) when the value was written absolute.
    /// - Parameters:
    ///   - documentPath: the document's own path relative to the site folder.
    ///   - localPath: the URL's local path, or nil when not mirrored.
    ///   - url: the URL without fragment.
    ///   - fragment: the reference's fragment, kept in either form.
    ///   - writtenAbsolute: whether the value names its scheme and host.
    static func text(
        documentPath: String, localPath: String?, url: String, fragment: String?, writtenAbsolute: Bool
    ) -> String? {
        if let localPath { return PathMapper.relativeLink(from: documentPath, to: localPath, fragment: fragment) }
        if writtenAbsolute { return nil }
        return fragment.map { url + "#" + $0 } ?? url
    }

    /// Whether a value names its own scheme and host (`https://host/…`), so it resolves the
    /// same against the local file as against the web. `http:page.html` does not.
    static func isAbsolute(_ value: Substring, scheme: String?) -> Bool {
        guard let scheme else { return false }
        // On bytes, as URL parsing reads them (and ``MirrorCore/WebURL/scheme(of:)``): leading
        // C0 controls and spaces are skipped, and so are tab, LF and CR anywhere.
        var schemeAndColon = scheme.utf8.count + 1
        var slashes = 0
        var started = false
        for byte in value.utf8 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if !started {
                if byte <= 0x20 { continue }
                started = true
            }
            if schemeAndColon > 0 {
                schemeAndColon -= 1
                continue
            }
            guard byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") else { return false }
            slashes += 1
            if slashes == 2 { return true }
        }
        return false
    }

    /// ASCII whitespace as HTML defines it (space, tab, LF, FF, CR).
    private static func isHTMLSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\u{0C}" || character == "\r"
            || character == "\r\n"
    }
}
