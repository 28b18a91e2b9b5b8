import MirrorCore

extension ReferenceSite {
    /// Appends the site to a spilled record (``MirrorCore/ByteRecord``): its spans, the start
    /// as the distance from `previousEnd` (sites come in document order, so most distances
    /// take a byte or two), and its syntax in one byte.
    /// - Parameters:
    ///   - writer: the record.
    ///   - previousEnd: the end of the site written before it (0 for the first).
    public func write(to writer: inout ByteRecord.Writer, previousEnd: UInt32) {
        writer.number(start >= previousEnd ? UInt64(start - previousEnd) << 1 : UInt64(previousEnd - start) << 1 | 1)
        writer.number(end - start)
        writer.byte(Self.syntaxByte(syntax, hasIntegrity: integrityEnd > integrityStart))
        if integrityEnd > integrityStart {
            writer.number(integrityStart)
            writer.number(integrityEnd - integrityStart)
        }
    }

    /// Reads a site written by ``write(to:previousEnd:)``; nil for a damaged record.
    public static func read(from reader: inout ByteRecord.Reader, previousEnd: UInt32) -> ReferenceSite? {
        guard let distance = reader.number(), let length = reader.number(), let packed = reader.byte(),
              let (syntax, hasIntegrity) = syntax(of: packed) else { return nil }
        let offset = distance >> 1
        let start = distance & 1 == 0 ? UInt64(previousEnd) + offset : UInt64(previousEnd) &- offset
        var integrity: (UInt64, UInt64) = (0, 0)
        if hasIntegrity {
            guard let from = reader.number(), let count = reader.number() else { return nil }
            integrity = (from, from + count)
        }
        guard let start32 = UInt32(exactly: start), let end32 = UInt32(exactly: start + length),
              let integrityStart = UInt32(exactly: integrity.0), let integrityEnd = UInt32(exactly: integrity.1)
        else { return nil }
        return ReferenceSite(start: start32, end: end32, integrityStart: integrityStart, integrityEnd: integrityEnd, syntax: syntax)
    }

    private init(start: UInt32, end: UInt32, integrityStart: UInt32, integrityEnd: UInt32, syntax: Reference.Syntax) {
        self.start = start
        self.end = end
        self.integrityStart = integrityStart
        self.integrityEnd = integrityEnd
        self.syntax = syntax
    }

    /// Bits 0–1: the kind; 2–3 and 4–5: its quotes (3 for an absent attribute quote of CSS);
    /// bit 6: an integrity span follows.
    private static func syntaxByte(_ syntax: Reference.Syntax, hasIntegrity: Bool) -> UInt8 {
        func code(_ quote: Reference.Quote?) -> UInt8 {
            switch quote {
            case Reference.Quote.none?: 0
            case Reference.Quote.double?: 1
            case Reference.Quote.single?: 2
            case nil: 3
            }
        }
        let (kind, first, second): (UInt8, UInt8, UInt8) = switch syntax {
        case .htmlAttribute(let quote): (0, code(quote), 0)
        case .srcsetCandidate(let attributeQuote): (1, code(attributeQuote), 0)
        case .metaRefresh(let attributeQuote, let urlQuote): (2, code(attributeQuote), code(urlQuote))
        case .css(let quote, let attributeQuote): (3, code(quote), code(attributeQuote))
        }
        return kind | first << 2 | second << 4 | (hasIntegrity ? 1 << 6 : 0)
    }

    private static func syntax(of byte: UInt8) -> (Reference.Syntax, Bool)? {
        func quote(_ code: UInt8) -> Reference.Quote?? {
            switch code {
            case 0: .some(Reference.Quote.none)
            case 1: .some(Reference.Quote.double)
            case 2: .some(Reference.Quote.single)
            default: .some(nil)
            }
        }
        let first = (byte >> 2) & 3, second = (byte >> 4) & 3
        guard byte & 0x80 == 0, let firstQuote = quote(first), let secondQuote = quote(second) else { return nil }
        let syntax: Reference.Syntax
        switch byte & 3 {
        case 0:
            guard let q = firstQuote, second == 0 else { return nil }
            syntax = .htmlAttribute(quote: q)
        case 1:
            guard let q = firstQuote, second == 0 else { return nil }
            syntax = .srcsetCandidate(attributeQuote: q)
        case 2:
            guard let a = firstQuote, let u = secondQuote else { return nil }
            syntax = .metaRefresh(attributeQuote: a, urlQuote: u)
        default:
            guard let q = firstQuote else { return nil }
            syntax = .css(quote: q, attributeQuote: secondQuote)
        }
        return (syntax, byte & 0x40 != 0)
    }
}

extension Charset {
    /// Appends the charset to a spilled record.
    public func write(to writer: inout ByteRecord.Writer) {
        switch self {
        case .utf8: writer.byte(0)
        case .windows1252: writer.byte(1)
        case .utf16LE: writer.byte(2)
        case .utf16BE: writer.byte(3)
        case .other(let label):
            writer.byte(4)
            writer.text(label)
        }
    }

    /// Reads a charset written by ``write(to:)``; nil for a damaged record.
    public static func read(from reader: inout ByteRecord.Reader) -> Charset? {
        switch reader.byte() {
        case 0: .utf8
        case 1: .windows1252
        case 2: .utf16LE
        case 3: .utf16BE
        case 4: reader.text().map { .other($0) }
        default: nil
        }
    }
}
