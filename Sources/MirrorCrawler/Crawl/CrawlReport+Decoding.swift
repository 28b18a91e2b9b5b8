import Foundation

extension CrawlReport {
    enum CodingKeys: String, CodingKey {
        case site, startURLs, snapshot, startedAt, finishedAt, durationSeconds, finishReason, fetched, pages, requisites
        case failed, bytes, added, changed, unchanged, removed, previousSnapshot, rewrittenDocuments, errorsByKind, errors
        case outOfScope, outOfScopeCount, warnings, heldBack, heldBackCount, heldBackByRule, notFetched, notFetchedCount, stale, trapPeaks, proxy
        case render
    }

    /// Reads a report; the fields added since the first version (held-back links, what an early
    /// stop left) may be absent, as in the reports of older snapshots that `serve --live` reads.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        site = try c.decode(String.self, forKey: .site)
        startURLs = try c.decode([String].self, forKey: .startURLs)
        snapshot = try c.decode(String.self, forKey: .snapshot)
        startedAt = try c.decode(Date.self, forKey: .startedAt)
        finishedAt = try c.decode(Date.self, forKey: .finishedAt)
        durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
        finishReason = try c.decode(String.self, forKey: .finishReason)
        fetched = try c.decode(Int.self, forKey: .fetched)
        pages = try c.decode(Int.self, forKey: .pages)
        requisites = try c.decode(Int.self, forKey: .requisites)
        failed = try c.decode(Int.self, forKey: .failed)
        bytes = try c.decode(Int64.self, forKey: .bytes)
        added = try c.decode(Int.self, forKey: .added)
        changed = try c.decode(Int.self, forKey: .changed)
        unchanged = try c.decode(Int.self, forKey: .unchanged)
        removed = try c.decode(Int.self, forKey: .removed)
        previousSnapshot = try c.decodeIfPresent(String.self, forKey: .previousSnapshot)
        rewrittenDocuments = try c.decode(Int.self, forKey: .rewrittenDocuments)
        errorsByKind = try c.decode([String: Int].self, forKey: .errorsByKind)
        errors = try c.decode([Failure].self, forKey: .errors)
        outOfScope = try c.decode([String].self, forKey: .outOfScope)
        outOfScopeCount = try c.decode(Int.self, forKey: .outOfScopeCount)
        warnings = try c.decode([String].self, forKey: .warnings)
        heldBack = try c.decodeIfPresent([HeldBack].self, forKey: .heldBack) ?? []
        heldBackCount = try c.decodeIfPresent(Int.self, forKey: .heldBackCount) ?? 0
        heldBackByRule = try c.decodeIfPresent([String: Int].self, forKey: .heldBackByRule) ?? [:]
        notFetched = try c.decodeIfPresent([String].self, forKey: .notFetched) ?? []
        notFetchedCount = try c.decodeIfPresent(Int.self, forKey: .notFetchedCount) ?? 0
        stale = try c.decodeIfPresent(Int.self, forKey: .stale) ?? 0
        trapPeaks = try c.decodeIfPresent(TrapPeaks.self, forKey: .trapPeaks) ?? TrapPeaks()
        proxy = try c.decodeIfPresent(String.self, forKey: .proxy)
        render = try c.decodeIfPresent(RenderSummary.self, forKey: .render)
    }
}
