import MirrorCore

extension Frontier {
    /// Offers the references found in a fetched document.
    ///
    /// Each link gets the depth of `parent` if it is a requisite and one more if it is a page
    /// link, and is classified by ``scope``. New URLs in scope are queued; known URLs are
    /// duplicates (a queued requisite may be upgraded to a page, see ``Frontier``); the rest
    /// are refused with the scope's decision. URLs longer than ``FrontierLimits/maxURLLength``
    /// are ``DiscoveryResult/tooLong(length:limit:)``.
    /// - Parameters:
    ///   - links: the resolved URLs, in document order.
    ///   - parent: the item whose document contained them.
    /// - Returns: one result per link, in the same order.
    public mutating func discover(_ links: [DiscoveredLink], from parent: FrontierItem) -> [DiscoveryResult] {
        var results: [DiscoveryResult] = []
        results.reserveCapacity(links.count)
        // The parent's shape, once per document, and only when it can matter.
        let parentShape = !parent.isRequisite && limits.traps.maxShapeChain != nil ? traps.shape(of: parent) : nil
        for link in links {
            let url = link.url.withoutFragment
            let key = url.string
            let depth = link.isRequisite ? parent.depth : parent.depth + 1
            if let index = indexByKey[key] {
                if !link.isRequisite, entries[index].state == .queued,
                   entries[index].item.isRequisite || depth < entries[index].item.depth,
                   scope.classify(url, isRequisite: false, depth: depth) == .page {
                    upgrade(index, toPageAtDepth: depth)
                }
                if !link.isRequisite, !parent.isRequisite { lowerCounters(index, link: url, parent: parent, parentShape: parentShape) }
                results.append(.duplicate)
                continue
            }
            let length = key.utf8.count
            guard length <= limits.maxURLLength else {
                results.append(.tooLong(length: length, limit: limits.maxURLLength))
                continue
            }
            let decision = scope.classify(url, isRequisite: link.isRequisite, depth: depth)
            switch decision {
            case .page where limits.traps.isActive:
                switch traps.admit(url, parent: parent, parentShape: parentShape) {
                case .admitted(let chain, let growth):
                    let item = FrontierItem(url: url, depth: depth, isRequisite: false, referrer: parent.url,
                                            chain: chain, growth: growth)
                    enqueue(item, key: key)
                    results.append(.queued(item))
                case .held(let rule, let detail):
                    results.append(.heldBack(rule, detail: detail))
                }
            case .page, .requisite:
                let item = FrontierItem(url: url, depth: depth, isRequisite: decision == .requisite, referrer: parent.url)
                enqueue(item, key: key)
                results.append(.queued(item))
            case .outOfScope, .excluded, .tooDeep:
                results.append(.refused(decision))
            }
        }
        return results
    }

    /// Whether offering the URL whose normalised, fragment-free text is `key` would certainly
    /// be a no-op (``DiscoveryResult/duplicate`` without an upgrade): it is known, and it is a
    /// requisite link or the known entry is no longer queued. Lets a caller holding URL text
    /// skip parsing it.
    /// - Parameters:
    ///   - key: the URL's ``MirrorCore/WebURL/string`` without fragment.
    ///   - isRequisite: whether the link is a page requisite.
    public func isSettled(_ key: String, isRequisite: Bool) -> Bool {
        guard let index = indexByKey[key] else { return false }
        return isRequisite || entries[index].state != .queued
    }

    /// Records that fetching `item` ended, through redirects, at `final`.
    ///
    /// `final` becomes known, so later references to it are duplicates and it is never
    /// fetched on its own. The caller checks `final` against the scope itself, and still
    /// reports `item` with ``complete(_:bytes:)`` or ``fail(_:)`` whatever the answer.
    /// - Parameters:
    ///   - item: the in-flight item that was redirected.
    ///   - final: the URL the redirects ended at (its fragment is ignored).
    /// - Returns: true when `final` is `item`'s own URL or was unknown; false when `final` is
    ///   already queued, fetched or the target of another redirect, in which case the caller
    ///   should map `item` to that existing copy rather than store a second one.
    public mutating func redirected(_ item: FrontierItem, to final: WebURL) -> Bool {
        let target = final.withoutFragment
        let key = target.string
        if key == item.url.withoutFragment.string { return true }
        guard indexByKey[key] == nil else { return false }
        let index = entries.count
        entries.append(Entry(
            item: FrontierItem(url: target, depth: item.depth, isRequisite: item.isRequisite, referrer: item.referrer),
            state: .redirectTarget))
        indexByKey[key] = index
        return true
    }
}
