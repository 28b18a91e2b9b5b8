/// Where one reference sits in its document and how a replacement must be written there:
/// all that a later rewrite needs, once the reference is resolved, without parsing the
/// document again.
///
/// A ``Reference`` also carries its element, attribute and decoded value; a site keeps only
/// offsets and the syntax, in 20 bytes, so that a crawl can hold the sites of thousands of
/// documents until every link target is known.
public struct ReferenceSite: Sendable, Hashable {
    let start: UInt32
    let end: UInt32
    let integrityStart: UInt32
    let integrityEnd: UInt32
    /// How the raw text is embedded (``Reference/syntax``).
    public let syntax: Reference.Syntax

    /// The site of `reference`, or nil when its spans do not fit 32-bit offsets (a document
    /// over 4 GiB, which is never parsed anyway).
    public init?(_ reference: Reference) {
        guard reference.span.lowerBound >= 0, let end = UInt32(exactly: reference.span.upperBound) else { return nil }
        start = UInt32(reference.span.lowerBound)
        self.end = end
        if let integrity = reference.integritySpan {
            guard integrity.lowerBound >= 0, let integrityEnd = UInt32(exactly: integrity.upperBound),
                  integrity.upperBound > integrity.lowerBound else { return nil }
            integrityStart = UInt32(integrity.lowerBound)
            self.integrityEnd = integrityEnd
        } else {
            integrityStart = 0
            integrityEnd = 0
        }
        syntax = reference.syntax
    }

    /// The bytes of the raw value (``Reference/span``).
    public var span: Range<Int> { Int(start)..<Int(end) }

    /// The element's whole `integrity` attribute (``Reference/integritySpan``), if any.
    public var integritySpan: Range<Int>? {
        integrityEnd > integrityStart ? Int(integrityStart)..<Int(integrityEnd) : nil
    }
}
