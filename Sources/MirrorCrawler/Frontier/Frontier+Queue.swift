import MirrorCore

// Queue bookkeeping: new entries, depth buckets, and upgrades of queued entries.

extension Frontier {
    /// Queues a registered URL that the frontier had not seen (``State/unknown``).
    mutating func enqueue(_ id: UInt32, depth: Int, isRequisite: Bool, referrer: UInt32?, chain: Int = 0, growth: Int = 0) {
        nodes[Int(id)] = Node(state: .queued, isRequisite: isRequisite, chain: UInt16(clamping: chain),
                              growth: UInt16(clamping: growth), depth: Int32(clamping: depth),
                              referrer: referrer.map { $0 + 1 } ?? 0)
        seenCount += 1
        queuedCount += 1
        push(id, depth: depth)
    }

    /// Appends an id to its depth's bucket.
    mutating func push(_ id: UInt32, depth: Int) {
        while buckets.count <= depth { buckets.append(FIFOQueue()) }
        buckets[depth].append(id)
        lowestDepth = min(lowestDepth, depth)
    }

    /// Removes the next live queued id: lowest depth first, FIFO within it.
    mutating func popQueued() -> UInt32? {
        while let id = priority.popFirst() {
            if nodes[Int(id)].state == .queued { return id }
        }
        while lowestDepth < buckets.count {
            while let id = buckets[lowestDepth].popFirst() {
                let node = nodes[Int(id)]
                if node.state == .queued, node.depth == lowestDepth { return id }
            }
            lowestDepth += 1
        }
        // Every bucket is empty; `push` lowers the mark again. Not resetting it to 0 keeps a
        // long chain of pages (one new depth per page) linear rather than quadratic.
        return nil
    }

    /// Turns a queued requisite into a page, or moves a queued page to a smaller depth.
    mutating func upgrade(_ id: UInt32, toPageAtDepth depth: Int) {
        let node = nodes[Int(id)]
        guard node.state == .queued, node.isRequisite || depth < node.depth else { return }
        let newDepth = min(depth, Int(node.depth))
        nodes[Int(id)].isRequisite = false
        nodes[Int(id)].depth = Int32(clamping: newDepth)
        if newDepth != node.depth { push(id, depth: newDepth) }
    }

    /// Lowers the trap counters of a still-queued page to those it would get from `parent`
    /// (a page a chain reached first, but an index lists too).
    mutating func lowerCounters(_ id: UInt32, link url: WebURL, parent: FrontierItem, parentShape: Int?) {
        let node = nodes[Int(id)]
        guard node.state == .queued, !node.isRequisite, node.chain > 0 || node.growth > 0 else { return }
        let counters = traps.counters(of: url, parent: parent, parentShape: parentShape)
        nodes[Int(id)].chain = min(node.chain, UInt16(clamping: counters.chain))
        nodes[Int(id)].growth = min(node.growth, UInt16(clamping: counters.growth))
    }
}
