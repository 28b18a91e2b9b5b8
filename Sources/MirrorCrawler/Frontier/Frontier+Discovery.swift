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
        // The parent's number, for the referrer of what it queues (a sitemap is numbered here).
        var parentID = parent.id
        for link in links {
            let url = link.url.withoutFragment
            let depth = link.isRequisite ? parent.depth : parent.depth + 1
            let known = registry.id(of: url)
            if let id = known, nodes[Int(id)].state != .unknown {
                let node = nodes[Int(id)]
                if !link.isRequisite, node.state == .queued, node.isRequisite || depth < node.depth,
                   scope.classify(url, isRequisite: false, depth: depth) == .page {
                    upgrade(id, toPageAtDepth: depth)
                }
                if !link.isRequisite, !parent.isRequisite { lowerCounters(id, link: url, parent: parent, parentShape: parentShape) }
                results.append(.duplicate)
                continue
            }
            let length = url.string.utf8.count
            guard length <= limits.maxURLLength else {
                results.append(.tooLong(length: length, limit: limits.maxURLLength))
                continue
            }
            let decision = scope.classify(url, isRequisite: link.isRequisite, depth: depth)
            var counters = (chain: 0, growth: 0)
            switch decision {
            case .page where limits.traps.isActive:
                switch traps.admit(url, parent: parent, parentShape: parentShape) {
                case .admitted(let chain, let growth):
                    counters = (chain, growth)
                case .held(let rule, let detail):
                    results.append(.heldBack(rule, detail: detail))
                    continue
                }
            case .page, .requisite:
                break
            case .outOfScope, .excluded, .tooDeep:
                results.append(.refused(decision))
                continue
            }
            if parentID == nil { parentID = register(parent.url).id }
            let id = known ?? register(url).id
            let isRequisite = decision == .requisite
            enqueue(id, depth: depth, isRequisite: isRequisite, referrer: parentID, chain: counters.chain, growth: counters.growth)
            var item = FrontierItem(url: url, depth: depth, isRequisite: isRequisite, referrer: parent.url,
                                    chain: counters.chain, growth: counters.growth)
            item.id = id
            results.append(.queued(item))
        }
        return results
    }

    /// Whether offering the URL whose normalised, fragment-free text is `key` from `parent`
    /// would certainly be a no-op (``DiscoveryResult/duplicate`` with nothing changed): it is
    /// known, and it is a requisite link, or no longer queued, or queued as a page no deeper
    /// than this link would put it with no trap counter to lower (see ``discover(_:from:)``).
    /// Lets a caller holding URL text skip parsing it.
    /// - Parameters:
    ///   - key: the URL's ``MirrorCore/WebURL/string`` without fragment.
    ///   - isRequisite: whether the link is a page requisite.
    ///   - parent: the item whose document holds the link.
    public func isSettled(_ key: String, isRequisite: Bool, from parent: FrontierItem) -> Bool {
        guard let id = registry.id(forKey: key) else { return false }
        let node = nodes[Int(id)]
        if node.state == .unknown { return false }
        if isRequisite || node.state != .queued { return true }
        return !node.isRequisite && Int(node.depth) <= parent.depth + 1 && node.chain == 0 && node.growth == 0
    }

    /// The links of a document's stored references (``MirrorStore/ManifestEntry/references``:
    /// normalised URL text without fragment, `+` before a requisite's) that offering could
    /// change something for, parsed, in order. Most are settled by now (the stylesheet every
    /// page links), and are dropped without being parsed (``isSettled(_:isRequisite:from:)``).
    /// - Parameters:
    ///   - references: the stored references.
    ///   - parent: the item whose document holds them.
    public func unsettledLinks(amongStored references: [String], from parent: FrontierItem) -> [DiscoveredLink] {
        var links: [DiscoveredLink] = []
        for reference in references {
            let isRequisite = reference.utf8.first == UInt8(ascii: "+")
            let text = isRequisite ? String(reference.dropFirst()) : reference
            if isSettled(text, isRequisite: isRequisite, from: parent) { continue }
            if let url = WebURL(text) { links.append(DiscoveredLink(url: url, isRequisite: isRequisite)) }
        }
        return links
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
        if target == item.url.withoutFragment { return true }
        let (id, _) = register(target)
        guard nodes[Int(id)].state == .unknown else { return false }
        let referrer = item.referrerText.map { register(key: $0).id + 1 } ?? 0
        nodes[Int(id)] = Node(state: .redirectTarget, isRequisite: item.isRequisite, chain: 0, growth: 0,
                              depth: Int32(clamping: item.depth), referrer: referrer)
        seenCount += 1
        return true
    }
}
