/// Whole pages of a spill file kept in memory, direct-mapped by page number (page `n` goes to
/// slot `n % slots`): a ``SpillFile`` read that falls in a cached page costs no system call.
///
/// Spill records are small (a URL, a local path, a document's prepared rewrite) and read one
/// at a time, each with its own `pread`: 15,800 of them in a mirror of CMake's documentation.
/// Most reads come in runs of neighbours (the frontier takes URLs in the order they were
/// found; the rewrite workers take runs of consecutive documents) or from a file small enough
/// to fit in the slots (the local paths of a site of up to about 25,000 URLs), so one read of
/// a page serves many records. Only pages wholly written to the file are cached: they never
/// change. Memory is at most `pageSize × slots`, whatever the site's size. Not thread-safe: the
/// spill file holds it under its lock.
struct SpillPageCache: Sendable {
    /// The size and number of pages kept.
    struct Configuration: Sendable, Equatable {
        let pageSize: Int
        let slots: Int

        init(pageSize: Int, slots: Int) {
            precondition(pageSize > 0 && slots > 0)
            self.pageSize = pageSize
            self.slots = slots
        }
    }

    private struct Page {
        let number: Int64
        let bytes: [UInt8]
    }

    let configuration: Configuration
    private var slots: [Page?]

    init(_ configuration: Configuration) {
        self.configuration = configuration
        slots = Array(repeating: nil, count: configuration.slots)
    }

    /// The page that holds a whole record, when one page does and that page is wholly in the
    /// file (`flushedSize` bytes written); nil otherwise (the record is read on its own).
    func page(holding offset: Int64, count: Int, flushedSize: Int64) -> Int64? {
        let size = Int64(configuration.pageSize)
        let number = offset / size
        let end = (number + 1) * size
        guard offset + Int64(count) <= end, end <= flushedSize else { return nil }
        return number
    }

    /// Where page `number` starts in the file.
    func start(of number: Int64) -> Int64 { number * Int64(configuration.pageSize) }

    /// Page `number`'s bytes if it is cached.
    func bytes(of number: Int64) -> [UInt8]? {
        guard let page = slots[slot(of: number)], page.number == number else { return nil }
        return page.bytes
    }

    /// Keeps page `number` (replacing the page in its slot).
    mutating func keep(_ number: Int64, bytes: [UInt8]) {
        slots[slot(of: number)] = Page(number: number, bytes: bytes)
    }

    private func slot(of number: Int64) -> Int { Int(number % Int64(configuration.slots)) }
}
