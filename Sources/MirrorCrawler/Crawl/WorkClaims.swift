import Synchronization

/// Hands out the indices `0..<count` to several workers in batches of consecutive indices:
/// each worker claims the next batch when it has done its last, so that the workers finish
/// together however uneven the items are, and each works on neighbouring items.
final class WorkClaims: Sendable {
    let count: Int
    let batch: Int
    private let next = Atomic<Int>(0)

    init(count: Int, batch: Int) {
        self.count = max(0, count)
        self.batch = max(1, batch)
    }

    /// The next batch of indices, or nil when every index has been handed out.
    func claim() -> Range<Int>? {
        let start = next.add(batch, ordering: .relaxed).oldValue
        guard start < count else { return nil }
        return start..<min(start + batch, count)
    }

    /// The indices one worker takes, batch by batch, as it iterates.
    func indices() -> some Sequence<Int> {
        sequence(state: 0..<0) { (current: inout Range<Int>) -> Int? in
            if current.isEmpty {
                guard let batch = self.claim() else { return nil }
                current = batch
            }
            return current.popFirst()
        }
    }
}
