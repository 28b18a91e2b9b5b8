/// A first-in, first-out queue with O(1) amortised append and removal.
///
/// Elements are read from an advancing head index; the consumed prefix is dropped once it is
/// at least half the storage, so memory stays proportional to what is queued.
struct FIFOQueue<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    /// Whether nothing is queued.
    var isEmpty: Bool { head == storage.count }

    /// The number of queued elements.
    var count: Int { storage.count - head }

    /// Adds an element at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the front element, or nil when empty.
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
