import MirrorCore

/// A URL found in a fetched document, offered to the frontier.
public struct DiscoveredLink: Sendable, Equatable {
    /// The resolved URL (a fragment is ignored).
    public let url: WebURL
    /// True for a page requisite (image, stylesheet, script, font, media…).
    public let isRequisite: Bool

    /// Creates a discovered link.
    /// - Parameters:
    ///   - url: the resolved URL.
    ///   - isRequisite: whether the reference is a page requisite.
    public init(url: WebURL, isRequisite: Bool) {
        self.url = url
        self.isRequisite = isRequisite
    }
}

/// What the frontier did with one discovered link.
public enum DiscoveryResult: Sendable, Equatable {
    /// The URL is new and was queued as this item.
    case queued(FrontierItem)
    /// The URL was already queued, fetched or reached by a redirect. When a page-scope link
    /// finds it still queued as a requisite, it is upgraded to a page (see ``Frontier``).
    case duplicate
    /// The scope refused it.
    case refused(ScopeDecision)
    /// Longer than ``FrontierLimits/maxURLLength``: reported, never fetched.
    case tooLong(length: Int, limit: Int)
    /// In scope, but a crawler-trap rule held it back (``TrapGuard``); `detail` says by how much.
    case heldBack(TrapRule, detail: String)
}
