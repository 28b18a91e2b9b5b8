import CMirrorShims

/// Process-wide settings of glibc's allocator, for the executable (issue #27).
///
/// A mirror's memory comes in two kinds: its per-URL columns, which only grow, and the
/// transient buffers of one document at a time (the body, the parser's copies, the reference
/// list: about seven times a page's size while it is parsed, 20 MB for CMake's 2.8 MB
/// `genindex.html`). glibc hands out large blocks with `mmap` at first, but once such a block
/// is freed it raises its threshold (up to 32 MB), and the next large blocks come from the
/// arenas, whose freed pages stay resident, one arena per thread that touched them. On CMake's
/// manual that kept 7 MB of freed buffers resident, and the rewrite phase's peak came on top.
public enum AllocatorPolicy {
    /// Blocks of this size or more that no freed space of an arena can hold are mapped on their
    /// own, and unmapped when freed.
    public static let largeBlock: Int32 = 256 * 1024

    /// Fixes glibc's `mmap` threshold at ``largeBlock`` (which also ends its dynamic raising).
    /// Call it first thing in `main`.
    /// - Returns: whether the allocator accepted it.
    @discardableResult
    public static func mapLargeBlocksAlone() -> Bool {
        #if os(Linux)
        return CMirrorShims_set_mmap_threshold(largeBlock) == 1
        #else
        return false
        #endif
    }

    /// Below this much free space in the arenas, ``returnFreedMemory(above:)`` leaves it: a
    /// small site's crawl frees a few hundred KB, and `malloc_trim` walks every arena and
    /// `madvise`s page by page, each call a TLB shootdown on the other cores: 0.3 ms at the end
    /// of the crawl of a 17-page site, for nothing (issue #27).
    public static let worthReturning = 4 << 20

    /// Gives the pages of freed blocks that the arenas still hold back to the system: between
    /// two phases whose buffers differ (the crawl's parsers, the rewrite's writers), when the
    /// arenas hold more than `minimum` bytes of free chunks.
    /// - Returns: whether any memory went back.
    @discardableResult
    public static func returnFreedMemory(above minimum: Int = worthReturning) -> Bool {
        #if os(Linux)
        guard CMirrorShims_malloc_free_bytes() > minimum else { return false }
        return CMirrorShims_malloc_trim() == 1
        #else
        return false
        #endif
    }
}
