import Foundation
import MirrorCore
import MirrorStore

extension Crawler {
    /// Keeps the previous snapshot's copy of every URL a run that stopped early did not get to
    /// (``RunControl``, ``CrawlLimits/runTime``), so that the new snapshot is complete and never
    /// smaller than the old one: its file (or, for a document, its original, rewritten again) is
    /// hard-linked, and its manifest row is carried with ``MirrorStore/ManifestEntry/stale`` set
    /// and its old fetch time. Redirects the previous run recorded are carried too.
    ///
    /// URLs this run fetched, revalidated, found gone or saw fail keep this run's outcome.
    /// - Returns: how many URLs were carried over stale.
    /// - Throws: ``MirrorStore/StoreError`` when linking fails for another reason than a
    ///   missing previous file (which only leaves that URL out).
    func carryOver(
        from previous: PreviousSnapshot, state: CrawlState, staging: StagingSnapshot, originals: OriginalsPack
    ) async throws(StoreError) -> Int {
        var unfetched: [String: FrontierItem] = [:]
        for item in await state.unfetched { unfetched[item.url.string] = item }
        // The previous entries worth keeping: stored files and redirects, unless this run
        // recorded an outcome for them.
        var keys: [String] = []
        try previous.manifest.forEach(kinds: [.stored, .redirect]) { entry in
            keys.append(entry.url)
        }
        var carried = 0
        for key in await state.unhandled(keys) {
            guard let entry = previous.entry(forKey: key), let status = entry.status, let url = WebURL(entry.url) else { continue }
            if (300...399).contains(status) {
                await state.carryRedirect(entry)
                continue
            }
            let linked: LinkedKind?
            do {
                linked = try linkPrevious(entry, url: url, previous: previous, staging: staging, originals: originals)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .io(operation: "link", path: entry.localPath ?? entry.url, errno: 0)
            }
            guard let linked else { continue }
            var kept = entry
            if kept.stale == nil {
                let item = unfetched[entry.url]
                kept.stale = ManifestEntry.Stale(depth: item?.depth ?? 0, isRequisite: item?.isRequisite ?? (linked.document != .html))
            }
            await state.carry(kept, kind: linked.document)
            carried += 1
        }
        return carried
    }
}
