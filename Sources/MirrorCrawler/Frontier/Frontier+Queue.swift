import MirrorCore

// Queue bookkeeping: new entries, depth buckets, and upgrades of queued entries.

extension Frontier {
    /// Adds a new entry in the queued state.
    mutating func enqueue(_ item: FrontierItem, key: String) {
        let index = entries.count
        entries.append(Entry(item: item, state: .queued))
        indexByKey[key] = index
        queuedCount += 1
        push(index, depth: item.depth)
    }

    /// Appends an entry index to its depth's bucket.
    mutating func push(_ index: Int, depth: Int) {
        while buckets.count <= depth { buckets.append(FIFOQueue()) }
        buckets[depth].append(index)
        lowestDepth = min(lowestDepth, depth)
    }

    /// Removes the next live queued entry: lowest depth first, FIFO within it.
    mutating func popQueued() -> Int? {
        while let index = priority.popFirst() {
            if entries[index].state == .queued { return index }
        }
        while lowestDepth < buckets.count {
            while let index = buckets[lowestDepth].popFirst() {
                let entry = entries[index]
                if entry.state == .queued, entry.item.depth == lowestDepth { return index }
            }
            lowestDepth += 1
        }
        // Every bucket is empty; `push` lowers the mark again. Not resetting it to 0 keeps a
        // long chain of pages (one new depth per page) linear rather than quadratic.
        return nil
    }

    /// Makes a still-queued entry a page, at the lower of its depth and `depth`.
    ///
    /// Does nothing for an entry already handed out, or one that is already a page at a depth
    /// no greater than `depth`.
    mutating func upgrade(_ index: Int, toPageAtDepth depth: Int) {
        let entry = entries[index]
        guard entry.state == .queued, entry.item.isRequisite || depth < entry.item.depth else { return }
        let newDepth = min(depth, entry.item.depth)
        entries[index].item = FrontierItem(
            url: entry.item.url, depth: newDepth, isRequisite: false, referrer: entry.item.referrer,
            chain: Int(entry.item.chain), growth: Int(entry.item.growth))
        if newDepth != entry.item.depth { push(index, depth: newDepth) }
    }

    /// Lowers the trap counters of a still-queued page to those it would get from `parent`
    /// (a page a chain reached first, but an index lists too).
    mutating func lowerCounters(_ index: Int, link url: WebURL, parent: FrontierItem, parentShape: Int?) {
        let item = entries[index].item
        guard entries[index].state == .queued, !item.isRequisite, item.chain > 0 || item.growth > 0 else { return }
        let counters = traps.counters(of: url, parent: parent, parentShape: parentShape)
        entries[index].item.chain = min(item.chain, UInt16(clamping: counters.chain))
        entries[index].item.growth = min(item.growth, UInt16(clamping: counters.growth))
    }
}
