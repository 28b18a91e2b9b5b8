import MirrorCore

/// The new URL text for each reference of one document, and the URLs it leaves pointing
/// at the web.
public struct LinkPlan: Sendable {
    /// Index into the document's references → the URL text to write there. References
    /// without an entry stay as they are.
    public var replacements: [Int: String]
    /// The http(s) URLs (without fragment, each once, in document order) that are not
    /// mirrored and so stay absolute links to the web: for the report.
    public var external: [WebURL]

    /// Creates a plan.
    /// - Parameters:
    ///   - replacements: reference index → new URL text.
    ///   - external: the unmirrored URLs.
    public init(replacements: [Int: String] = [:], external: [WebURL] = []) {
        self.replacements = replacements
        self.external = external
    }
}
