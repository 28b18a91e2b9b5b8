/// A fixed set of element names, each with its number (its place in the list it was made
/// from), looked up in a few instructions: one multiplication picks a slot, and neighbours are
/// compared word by word. It replaces a `Dictionary` for the classification of every start
/// tag of a page, where `Hasher`'s seeding and finalising cost more than the rest.
///
/// The table is made once (it is a process-wide constant of its users) and never freed.
final class ElementNameTable: @unchecked Sendable {
    /// A power of two, at least four times the number of names, so that chains stay short.
    private let capacity: Int
    private let keys: UnsafeMutablePointer<ElementName>
    /// The number of the name in each slot; -1 for an empty slot.
    private let numbers: UnsafeMutablePointer<Int32>

    /// - Precondition: `names` has no duplicates.
    init(_ names: [ElementName]) {
        var capacity = 16
        while capacity < names.count * 4 { capacity *= 2 }
        self.capacity = capacity
        keys = .allocate(capacity: capacity)
        numbers = .allocate(capacity: capacity)
        keys.initialize(repeating: ElementName.empty, count: capacity)
        numbers.initialize(repeating: -1, count: capacity)
        for (number, name) in names.enumerated() {
            var slot = name.slot(capacity: capacity)
            while numbers[slot] >= 0 {
                precondition(keys[slot] != name, "ElementNameTable: \(names) lists a name twice")
                slot = (slot + 1) & (capacity - 1)
            }
            keys[slot] = name
            numbers[slot] = Int32(number)
        }
    }

    /// The number of `name`, or nil when it is not in the table.
    @inline(__always)
    func number(of name: ElementName) -> Int? {
        var slot = name.slot(capacity: capacity)
        while true {
            let number = numbers[slot]
            if number < 0 { return nil }
            if keys[slot] == name { return Int(number) }
            slot = (slot + 1) & (capacity - 1)
        }
    }
}
