import Foundation

/// How redirects are followed: bounded, reported, and never to a scheme we do not fetch.
public struct RedirectPolicy: Sendable, Equatable {
    /// Redirects followed before ``HTTPError/tooManyRedirects(url:chain:)`` (curl's --max-redirs).
    public var maxRedirects: Int
    /// Follow `https:` → `http:`. Off by default: protected content should not leave TLS.
    public var allowDowngrade: Bool
    /// Follow redirects at all (off: the 3xx response is returned).
    public var follow: Bool

    public init(maxRedirects: Int = 10, allowDowngrade: Bool = false, follow: Bool = true) {
        self.maxRedirects = maxRedirects
        self.allowDowngrade = allowDowngrade
        self.follow = follow
    }

    /// The next URL for a redirect, or the reason to refuse it.
    ///
    /// - Parameters:
    ///   - location: the `Location` header value.
    ///   - current: the URL that answered with the redirect.
    ///   - chain: URLs visited so far, the first request included.
    /// - Throws: ``HTTPError/redirectRefused(from:to:reason:)`` or ``HTTPError/tooManyRedirects(url:chain:)``.
    public func next(location: String, from current: String, chain: [String]) throws(HTTPError) -> String {
        guard let base = URL(string: current),
              let resolved = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
              let scheme = resolved.scheme?.lowercased()
        else {
            throw .redirectRefused(from: current, to: location, reason: "the Location header is not a valid URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .redirectRefused(from: current, to: location, reason: "the \(scheme): scheme is never fetched")
        }
        if scheme == "http", base.scheme?.lowercased() == "https", !allowDowngrade {
            throw .redirectRefused(from: current, to: resolved.absoluteString,
                                   reason: "it leaves TLS (https to http); pass --allow-downgrade to follow")
        }
        var target = resolved.absoluteString
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if chain.contains(target) {
            throw .tooManyRedirects(url: chain.first ?? current, chain: chain + [target])
        }
        if chain.count > maxRedirects {
            throw .tooManyRedirects(url: chain.first ?? current, chain: chain + [target])
        }
        return target
    }
}
