import MirrorCore

extension CrawlState {
    /// Claims a URL that render mode fetched for a page (``Frontier/claim(_:isRequisite:depth:referrer:)``);
    /// record its outcome with ``stored(_:finalURL:localPath:response:links:documentKind:change:rewrite:originalOnly:)``
    /// or ``failed(_:kind:cause:)``.
    func claim(_ url: WebURL, isRequisite: Bool, depth: Int, referrer: WebURL?) -> FrontierItem? {
        frontier.claim(url, isRequisite: isRequisite, depth: depth, referrer: referrer)
    }
}
