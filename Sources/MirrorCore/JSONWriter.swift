/// Writes JSON text straight to bytes, for the few documents a run writes on its critical
/// path (the report, the history line, the stored robots.txt).
///
/// `JSONEncoder` found each encoded type's conformances at run time the first time it met
/// them (a scan of every conformance record in the binary, tens of microseconds each): about
/// 1 ms of a two-page mirror's 22 went to encoding three small documents once. The caller
/// writes keys in the order it wants (sorted, as `JSONEncoder`'s `.sortedKeys` wrote them), and
/// reads the result with `JSONDecoder` as before.
public struct JSONWriter {
    /// The text written so far (UTF-8).
    public private(set) var bytes: [UInt8] = []
    /// Line breaks and two spaces of indentation per level, as `JSONEncoder`'s `.prettyPrinted`.
    private let pretty: Bool
    /// Per open container: whether it has an element yet.
    private var hasElement: [Bool] = []
    /// A key was just written: the value follows without a separator.
    private var afterKey = false

    public init(pretty: Bool = false) {
        self.pretty = pretty
        bytes.reserveCapacity(512)
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// An object's key; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes += pretty ? [0x20, UInt8(ascii: ":"), 0x20] : [UInt8(ascii: ":")]
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separate()
        appendString(value)
    }

    public mutating func int<T: BinaryInteger>(_ value: T) {
        separate()
        bytes += Array(String(value).utf8)
    }

    /// A finite number in Swift's shortest round-tripping form (`JSONDecoder` reads it back to
    /// the same value); NaN and infinities, which JSON cannot hold, are written as null.
    public mutating func double(_ value: Double) {
        separate()
        bytes += value.isFinite ? Array("\(value)".utf8) : Array("null".utf8)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes += Array((value ? "true" : "false").utf8)
    }

    public mutating func null() {
        separate()
        bytes += Array("null".utf8)
    }

    /// A value that is JSON text already (from another encoder).
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes += json
    }

    /// `key` and a string, or nothing when `value` is nil (as `encodeIfPresent`).
    public mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    public mutating func field<T: BinaryInteger>(_ name: String, _ value: T) {
        key(name)
        int(value)
    }

    /// An array of strings.
    public mutating func field(_ name: String, _ values: [String]) {
        key(name)
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// An object of integers, its keys sorted.
    public mutating func field(_ name: String, _ counts: [String: Int]) {
        key(name)
        beginObject()
        for (entry, count) in counts.sorted(by: { $0.key < $1.key }) { field(entry, count) }
        endObject()
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        hasElement.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        let nonEmpty = hasElement.removeLast()
        if pretty, nonEmpty { newline() }
        bytes.append(bracket)
    }

    /// Before a key or a value: the comma and line break after the previous element.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard !hasElement.isEmpty else { return }
        if hasElement[hasElement.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasElement[hasElement.count - 1] = true
        if pretty { newline() }
    }

    private mutating func newline() {
        bytes.append(0x0A)
        bytes += repeatElement(0x20, count: 2 * hasElement.count)
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`,
    /// everything else as its UTF-8 bytes (`/` is not escaped).
    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
