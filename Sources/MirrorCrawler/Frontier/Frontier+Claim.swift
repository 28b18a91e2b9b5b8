import MirrorCore

extension Frontier {
    /// Hands out a URL that was fetched outside the frontier (by render mode: a response a
    /// page's browser asked for, answered by the crawl's engine), so that it is stored once,
    /// with its manifest row, and never fetched again.
    ///
    /// A URL the frontier has not seen becomes in flight at once; a queued one is taken out of
    /// the queue (its bucket slot goes stale). Report it with ``complete(_:bytes:)`` or
    /// ``fail(_:)`` as for `.fetch`. The scope is the caller's to check; the page limit is
    /// checked here, and a claim counts toward it as a fetch does.
    /// - Parameters:
    ///   - url: the URL (its fragment is ignored).
    ///   - isRequisite: whether it is a page requisite.
    ///   - depth: its link depth.
    ///   - referrer: the page that loaded it.
    /// - Returns: the item to report, or nil when the URL is in flight, done, failed or a
    ///   redirect target already, or the page limit is reached, or the frontier has stopped.
    public mutating func claim(_ url: WebURL, isRequisite: Bool, depth: Int, referrer: WebURL?) -> FrontierItem? {
        guard finishReason == nil, !isCancelled else { return nil }
        if let maxPages = limits.maxPages, fetchCount >= maxPages { return nil }
        let key = url.withoutFragment
        guard key.string.utf8.count <= limits.maxURLLength else { return nil }
        let (id, _) = register(key)
        switch nodes[Int(id)].state {
        case .queued:
            queuedCount -= 1
        case .unknown:
            nodes[Int(id)] = Node(state: .queued, isRequisite: isRequisite, chain: 0, growth: 0, depth: Int32(clamping: depth),
                                  referrer: referrer.map { register($0.withoutFragment).id + 1 } ?? 0)
            seenCount += 1
        default:
            return nil
        }
        nodes[Int(id)].state = .inFlight
        inFlightCount += 1
        fetchCount += 1
        return item(id)
    }
}
