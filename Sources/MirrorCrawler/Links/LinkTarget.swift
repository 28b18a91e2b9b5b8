import MirrorCore

/// What one reference of a document points at, decided when the document is parsed; the
/// rewrite then needs only the local paths of the mirrored URLs (``LinkPlanner``).
public enum LinkTarget: Sendable, Hashable {
    /// A resolved http(s) URL, fragment kept. `writtenAbsolute`: the value names its scheme
    /// and host, so it stays byte for byte as written when the URL is not mirrored.
    case url(WebURL, writtenAbsolute: Bool)
    /// A relative value that is no valid URL: it becomes `about:invalid`, which loads nothing,
    /// since read from disk it could point anywhere, even above the mirror.
    case invalid
}
