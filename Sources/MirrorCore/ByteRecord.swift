/// A compact binary record: unsigned LEB128 numbers and length-prefixed texts, appended to a
/// byte array (``ByteRecord/Writer``) and read back in order (``ByteRecord/Reader``). For the
/// records a crawl spills to disk instead of keeping in memory (documents' prepared rewrites,
/// issue #27): small numbers take one byte, and reading never traps on short or damaged input
/// (it answers nil).
public enum ByteRecord {
    /// Appends values to `bytes`. Inlinable: the crawl's modules write a record for every
    /// document and URL, and a call across modules to the generic `number` was unspecialised
    /// (0.3–0.9 % of a mirror's samples, issue #27).
    public struct Writer: Sendable {
        public var bytes: [UInt8]

        public init(reservingCapacity capacity: Int = 0) {
            bytes = []
            bytes.reserveCapacity(capacity)
        }

        /// An unsigned number in LEB128 (7 bits a byte, least significant first).
        @inlinable
        public mutating func number<N: BinaryInteger>(_ value: N) {
            var rest = UInt64(value)
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        /// One byte.
        @inlinable
        public mutating func byte(_ value: UInt8) {
            bytes.append(value)
        }

        /// A text: its UTF-8 length, then its bytes.
        @inlinable
        public mutating func text(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                number(utf8.count)
                bytes.append(contentsOf: utf8)
            }
        }

        /// An optional text: a flag byte, then the text when there is one.
        @inlinable
        public mutating func optionalText(_ value: String?) {
            if let value {
                byte(1)
                text(value)
            } else {
                byte(0)
            }
        }
    }

    /// Reads values back in the order they were written. Every read answers nil when the bytes
    /// end early or do not form the value (a damaged record), and the reader then stays failed.
    public struct Reader {
        private let bytes: UnsafeRawBufferPointer
        private var position = 0
        /// False once a read failed.
        public private(set) var isValid = true

        /// - Parameter bytes: the record; it must outlive the reader.
        public init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// How many bytes were read so far.
        public var consumed: Int { position }

        /// Whether every byte was read.
        public var isAtEnd: Bool { position == bytes.count }

        /// An unsigned LEB128 number (at most 64 bits).
        public mutating func number() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while isValid, position < bytes.count, shift < 64 {
                let next = bytes[position]
                position += 1
                value |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { return value }
                shift += 7
            }
            isValid = false
            return nil
        }

        /// A number that must fit `Int` (and at most `limit`).
        public mutating func int(limit: Int = .max) -> Int? {
            guard let value = number(), value <= UInt64(limit) else {
                isValid = false
                return nil
            }
            return Int(value)
        }

        /// One byte.
        public mutating func byte() -> UInt8? {
            guard isValid, position < bytes.count else {
                isValid = false
                return nil
            }
            position += 1
            return bytes[position - 1]
        }

        /// A text written by ``Writer/text(_:)``.
        public mutating func text() -> String? {
            guard let length = number() else { return nil }
            guard length <= UInt64(bytes.count - position) else {
                isValid = false
                return nil
            }
            let count = Int(length)
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<position + count]), as: UTF8.self)
            position += count
            return text
        }

        /// An optional text written by ``Writer/optionalText(_:)``: `.some(nil)` for none, nil
        /// when the record is damaged.
        public mutating func optionalText() -> String?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return text().map { .some($0) }
            default:
                isValid = false
                return nil
            }
        }
    }
}
