import MirrorCore
import MirrorDocument
import MirrorStore

/// Decides how each reference of a mirrored document is rewritten. Pure: it neither fetches
/// nor touches files.
///
/// For each reference, after resolving it against the document's base URL:
/// - **mirrored** (the lookup returns a local path): a relative link from the document's own
///   file to that file, fragment kept (``MirrorStore/PathMapper/relativeLink(from:to:fragment:)``);
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
            let value = reference.value
            let trimmed = value.drop { isHTMLSpace($0) }
            if trimmed.allSatisfy(isHTMLSpace) || trimmed.hasPrefix("#") { continue }
            let scheme = WebURL.scheme(of: value)
            if let scheme, scheme != "http", scheme != "https" { continue }
            guard let resolved = try? baseURL.resolving(value) else {
                // A relative reference that is no valid URL (control characters, over-long) must
                // not stay as it is: read from disk it could point anywhere, even above the
                // mirror (`/x` is the file-system root). `about:invalid` loads nothing (the
                // value CSS uses for invalid URLs).
                if scheme == nil { plan.replacements[index] = "about:invalid" }
                continue
            }
            let target = resolved.withoutFragment
            if let local = localPath(target) {
                plan.replacements[index] = PathMapper.relativeLink(
                    from: documentPath, to: local, fragment: resolved.fragment)
                continue
            }
            if listed.insert(target.string).inserted { plan.external.append(target) }
            if !isAbsolute(trimmed, scheme: scheme) { plan.replacements[index] = resolved.string }
        }
        return plan
    }

    /// Whether a value names its own scheme and host (`https://host/…`), so it resolves the
    /// same against the local file as against the web. `http:page.html` does not.
    private static func isAbsolute(_ value: Substring, scheme: String?) -> Bool {
        guard let scheme else { return false }
        let rest = value.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }.dropFirst(scheme.count + 1)
        return rest.prefix(2).allSatisfy { $0 == "/" || $0 == "\\" } && rest.count >= 2
    }

    /// ASCII whitespace as HTML defines it (space, tab, LF, FF, CR).
    private static func isHTMLSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\u{0C}" || character == "\r"
            || character == "\r\n"
    }
}
