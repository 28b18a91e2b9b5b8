/// Interned URL texts (normalised, without fragment): each distinct URL is kept once and
/// known by a 32-bit number, so that thousands of documents can remember what their
/// references point at without a string per reference.
struct URLTable: Sendable {
    private(set) var strings: [String] = []
    private var numbers: [String: UInt32] = [:]

    /// The number of `url`, added if new.
    mutating func number(of url: String) -> UInt32 {
        if let number = numbers[url] { return number }
        let number = UInt32(strings.count)
        strings.append(url)
        numbers[url] = number
        return number
    }

    /// How many URLs the table holds.
    var count: Int { strings.count }
}
