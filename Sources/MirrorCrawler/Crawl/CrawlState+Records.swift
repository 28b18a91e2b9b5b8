import Foundation
import MirrorCore
import MirrorStore

// What the crawl recorded of each URL, by its id: reserved paths, the local path table, the
// questions a run's later phases ask, and the records themselves.
extension CrawlState {
    /// A local path given to a URL that was linked but not mirrored.
    struct Reservation: Sendable, Equatable {
        let url: String
        let path: String
        let isRequisite: Bool
        /// Why it is not in the mirror; its ``NotMirroredReason/manifestText`` is the manifest's.
        let reason: NotMirroredReason
    }

    /// Gives every in-scope URL that was linked but not mirrored — beyond the depth or page
    /// limit, or failed with an HTTP or network error — the local path it would have, and records
    /// it in the manifest without a status. Pages then link to it locally, so the copy holds no
    /// in-scope link to the origin, and `serve --live` can fetch it when a browser asks. That
    /// includes URLs robots.txt disallows and in-scope URLs that redirect out of scope: their
    /// placeholder says so.
    ///
    /// - Returns: the reservations, sorted by URL.
    func reservePaths(mapper: PathMapper) -> [Reservation] {
        // Most candidates were stored: only the rest are sorted (for a deterministic order).
        var unstored: [(key: String, id: UInt32, isRequisite: Bool)] = []
        for index in marks.indices {
            let mark = marks[index]
            guard mark.contains(.candidate), !mark.contains(.path), !mark.contains(.alias) else { continue }
            let id = UInt32(index)
            unstored.append((frontier.registry.text(of: id), id, mark.contains(.candidateRequisite)))
        }
        guard !unstored.isEmpty else { return [] }
        unstored.sort { $0.key < $1.key }
        // The stored files' paths, by fingerprint: a reserved path never takes one of them. A
        // sorted array, 8 bytes a path: a set of them took twice that or more, at the end of the
        // crawl, when memory peaks (issue #27).
        var stored: [UInt64] = []
        if keepsPathHashes {
            stored.reserveCapacity(pathHashes.count)
            for hash in pathHashes where hash != 0 { stored.append(hash) }
        } else {
            let paths = localPaths()
            for id in pathRefs.indices where pathRefs[id] != 0 { stored.append(paths.pathHash(of: UInt32(id))) }
        }
        stored.sort()
        var used = Set<UInt64>()
        let unfetchedKeys = frontier.haltedBecause == nil ? [] : Set(unfetched.map(\.url.string))
        var reserved: [Reservation] = []
        for (key, id, isRequisite) in unstored {
            guard let url = WebURL(key) else { continue }
            let path = mapper.relativePath(for: url, contentType: isRequisite ? nil : "text/html")
            let hash = ManifestIndex.pathHash(path)
            guard !Self.sortedContains(stored, hash), used.insert(hash).inserted else { continue }
            let reason: NotMirroredReason
            if let failure = failedByID[id] {
                reason = .failed(failure.kind, cause: failure.cause)
            } else if let status = goneStatuses[id] {
                reason = .gone(status: status)
            } else if let held = heldBack[id] {
                reason = .heldBack(held)
            } else if unfetchedKeys.contains(key) {
                reason = .stopped
            } else {
                reason = .beyondLimits
            }
            reserved.append(Reservation(url: key, path: path, isRequisite: isRequisite, reason: reason))
            record(ManifestEntry(url: url, localPath: path, status: nil, fetchedAt: nil, error: reason.manifestText), id: id)
        }
        return reserved
    }

    /// Whether a sorted array holds `value` (binary search).
    static func sortedContains(_ sorted: [UInt64], _ value: UInt64) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }

    /// URL → local path for every URL stored or reserved so far, and every redirect that leads
    /// to one. Flushes the spill files first: the rewrite reads them from several threads.
    func localPaths() -> LocalPaths {
        spills.flush()
        return LocalPaths(registry: frontier.registry, pathRefs: pathRefs, pathHashes: pathHashes, aliases: aliases,
                          paths: spills.paths)
    }

    /// Whether the run recorded anything for a URL (by its normalised text): an entry, a
    /// redirect, or a 404/410 that removed it. What it did not handle, a run that stopped early
    /// carries over from the previous snapshot.
    func isHandled(_ key: String) -> Bool {
        guard let id = frontier.registry.id(forKey: key) else { return false }
        return !mark(id).isDisjoint(with: [.entry, .alias, .gone])
    }

    /// Which URLs' entries have a status, as a value the report can ask without the actor.
    func statuses() -> StatusLookup {
        StatusLookup(registry: frontier.registry, marks: marks)
    }

    /// Whether a URL's entry has a status (it was fetched this run), by its normalised text.
    struct StatusLookup: Sendable {
        let registry: URLRegistry
        let marks: ChunkedArray<Marks>

        func hasStatus(fingerprint: UInt64) -> Bool {
            guard let id = registry.id(fingerprint: fingerprint), Int(id) < marks.count else { return false }
            return marks[Int(id)].contains(.status)
        }
    }

    /// The keys among `keys` that the run recorded nothing for (``isHandled(_:)``).
    func unhandled(_ keys: [String]) -> [String] {
        keys.filter { !isHandled($0) }
    }

    /// Whether the URL's entry has a status (it was fetched), by its normalised text.
    func hasStatus(_ key: String) -> Bool {
        frontier.registry.id(forKey: key).map { mark($0).contains(.status) } ?? false
    }

    /// The documents of one run of `runs` (``DocumentRuns``), read back in order from their
    /// spill for the rewrite phase; nil for a record that cannot be read.
    nonisolated func forEachDocument(inRun run: Int, of runs: DocumentRuns, registry: URLRegistry,
                                     _ body: (Document?) -> Void) {
        runs.forEach(inRun: run, spill: spills.documents) { record in
            guard let record, let url = registry.url(of: record.id) else { return body(nil) }
            var reader = ByteRecord.Reader(record.bytes)
            body(Document.read(from: &reader, url: url))
        }
    }

    /// The manifest's entries (for the report and the previous snapshot's comparison).
    var manifest: ManifestRecords { spills.manifest }

    // MARK: Records by id

    /// Writes `entry` to the manifest under `id` and notes what it has.
    /// - Parameter carried: `entry` is the previous snapshot's for its URL with a new fetch
    ///   time and no stale state (``MirrorStore/ManifestRecords/carry(_:id:)``).
    func record(_ entry: ManifestEntry, id: UInt32, carried: Bool = false) {
        do {
            if carried {
                try spills.manifest.carry(entry, id: id)
            } else {
                try spills.manifest.upsert(entry, id: id)
            }
        } catch {
            abort(error)
        }
        growColumns(to: id)
        var add: Marks = [.entry]
        if entry.status != nil { add.insert(.status) } else { marks[Int(id)].remove(.status) }
        if let path = entry.localPath {
            add.insert(.path)
            let utf8 = path.utf8.count
            let offset = spills.paths.append(utf8: path)
            pathRefs[Int(id)] = UInt64(offset) << 16 | UInt64(min(utf8, 0xFFFF))
            if keepsPathHashes { pathHashes[Int(id)] = ManifestIndex.pathHash(path) }
        } else {
            marks[Int(id)].remove(.path)
            pathRefs[Int(id)] = 0
            if keepsPathHashes { pathHashes[Int(id)] = 0 }
        }
        marks[Int(id)].formUnion(add)
        if let failure = spills.failure { abort(failure) }
    }

    /// Writes a document to the documents spill.
    func spill(_ document: Document, id: UInt32) {
        var writer = ByteRecord.Writer(reservingCapacity: 256)
        document.write(to: &writer)
        documents.add(at: spills.documents.append(DocumentRuns.record(id: id, body: writer.bytes)))
    }

    func mark(_ id: UInt32) -> Marks {
        Int(id) < marks.count ? marks[Int(id)] : []
    }

    func setMarks(_ id: UInt32, _ add: Marks) {
        growColumns(to: id)
        marks[Int(id)].formUnion(add)
    }

    func clearMarks(_ id: UInt32, _ remove: Marks) {
        guard Int(id) < marks.count else { return }
        marks[Int(id)].subtract(remove)
    }

    func growColumns(to id: UInt32) {
        let needed = Int(id) + 1
        guard marks.count < needed else { return }
        let more = needed - marks.count
        marks.append(repeating: [], count: more)
        pathRefs.append(repeating: 0, count: more)
        if keepsPathHashes { pathHashes.append(repeating: 0, count: more) }
    }
}
