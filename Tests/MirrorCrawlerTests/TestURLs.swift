import MirrorCore
import Testing

/// Parses a URL the test relies on; a typo fails the test instead of crashing it.
func webURL(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> WebURL {
    try #require(WebURL(text), "not a valid URL: \(text)", sourceLocation: sourceLocation)
}

