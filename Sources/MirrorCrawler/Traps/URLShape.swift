import MirrorCore

/// What the trap rules read off a URL's bytes: its shape, its path segments, its query
/// variant, and whether it grew out of another URL. Pure functions; nothing is allocated per
/// call except where a URL's text is not contiguous.
///
/// **Shape.** Two URLs have the same shape when they differ only in numbers in the path
/// (every run of digits counts as one digit) and in the values of their query parameters
/// (a value counts as empty, a number, or text): `/calendar/2026/11` and `/calendar/2027/1`
/// share one, as do `/s?sid=a1` and `/s?sid=a1x`, but `/wiki/Apple` and `/wiki/Banana` do not.
enum URLShape {
    /// A hash of the URL's shape (scheme, host and port included; the fragment ignored).
    static func hash(of url: WebURL) -> Int {
        var hasher = Hasher()
        withBytes(url.string) { bytes in
            var index = 0
            var inDigits = false
            // Scheme, host, port and path: digit runs collapse to one `0`.
            while index < bytes.count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
                let byte = bytes[index]
                if isDigit(byte) {
                    if !inDigits { hasher.combine(UInt8(ascii: "0")) }
                    inDigits = true
                } else {
                    hasher.combine(byte)
                    inDigits = false
                }
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "?") else { return }
            hasher.combine(UInt8(ascii: "?"))
            index += 1
            // Query: each parameter's name, then its value's class.
            while index < bytes.count, bytes[index] != UInt8(ascii: "#") {
                let end = parameterEnd(bytes, from: index)
                let equals = firstIndex(of: UInt8(ascii: "="), in: bytes, from: index, to: end) ?? end
                inDigits = false
                for position in index..<equals {
                    let byte = bytes[position]
                    if isDigit(byte) {
                        if !inDigits { hasher.combine(UInt8(ascii: "0")) }
                        inDigits = true
                    } else {
                        hasher.combine(byte)
                        inDigits = false
                    }
                }
                let valueStart = min(equals + 1, end)
                hasher.combine(valueClass(bytes, valueStart..<end))
                hasher.combine(UInt8(ascii: "&"))
                index = end + 1
            }
        }
        return hasher.finalize()
    }

    /// A hash of the query as the ``TrapRule/queryVariants`` rule counts it: the text, with
    /// every all-digit value replaced by one marker. Nil when the URL has no query.
    static func queryVariant(of url: WebURL) -> Int? {
        guard let query = url.query else { return nil }
        var hasher = Hasher()
        withBytes(query) { bytes in
            var index = 0
            while index < bytes.count {
                let end = parameterEnd(bytes, from: index)
                let equals = firstIndex(of: UInt8(ascii: "="), in: bytes, from: index, to: end) ?? end
                for position in index..<equals { hasher.combine(bytes[position]) }
                let value = min(equals + 1, end)..<end
                if valueClass(bytes, value) == ValueClass.number {
                    hasher.combine(UInt8(ascii: "#"))
                } else {
                    hasher.combine(UInt8(ascii: "="))
                    for position in value { hasher.combine(bytes[position]) }
                }
                hasher.combine(UInt8(ascii: "&"))
                index = end + 1
            }
        }
        return hasher.finalize()
    }

    /// The path's non-empty segments, and the most times one run of segments repeats in a row
    /// (`/x/y/y/y` and `/a/b/a/b/a/b` give 3): what relative links that loop produce. A segment
    /// that comes back after others (`/django/_modules/django/`) is not a repetition.
    static func segments(of path: String) -> (count: Int, mostRepeated: Int) {
        withBytes(path) { bytes in
            var ranges: [Range<Int>] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > start { ranges.append(start..<index) }
                start = index + 1
            }
            var most = ranges.isEmpty ? 0 : 1
            // Paths are short (the segment rule runs first): trying every run is cheap.
            guard ranges.count <= 64 else { return (ranges.count, most) }
            let n = ranges.count
            for length in stride(from: 1, through: n / 2, by: 1) {
                for first in 0..<(n - length) {
                    var repeats = 1
                    while first + (repeats + 1) * length <= n,
                          (0..<length).allSatisfy({ equal(bytes, ranges[first + $0], ranges[first + repeats * length + $0]) }) {
                        repeats += 1
                    }
                    most = max(most, repeats)
                }
            }
            return (ranges.count, most)
        }
    }

    /// Whether `child` grew out of `parent`: the same URL but for one query value, or one path
    /// segment, that extends the parent's (`sid=a1` → `sid=a1x`). A value made only of digits
    /// never grows this way (counting up is a ``TrapRule/shapeChain``).
    static func grows(from parent: WebURL, to child: WebURL) -> Bool {
        guard parent.host == child.host, parent.port == child.port, parent.scheme == child.scheme else { return false }
        if parent.path == child.path {
            guard let old = parent.query, let new = child.query, old != new else { return false }
            return withBytes(old) { a in withBytes(new) { b in extendsOneParameter(a, b) } }
        }
        guard parent.query == child.query else { return false }
        return withBytes(parent.path) { a in withBytes(child.path) { b in extendsOneSegment(a, b) } }
    }

    // MARK: Pieces

    enum ValueClass { static let empty: UInt8 = 0, number: UInt8 = 1, text: UInt8 = 2 }

    static func valueClass(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt8 {
        if range.isEmpty { return ValueClass.empty }
        for index in range where !isDigit(bytes[index]) { return ValueClass.text }
        return ValueClass.number
    }

    /// Query parameters: the same names in the same order, every value equal except those
    /// that extend the parent's, and at least one does.
    private static func extendsOneParameter(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, j = 0
        var grew = false
        while i < a.count || j < b.count {
            guard i < a.count, j < b.count else { return false }
            let endA = parameterEnd(a, from: i), endB = parameterEnd(b, from: j)
            let eqA = firstIndex(of: UInt8(ascii: "="), in: a, from: i, to: endA) ?? endA
            let eqB = firstIndex(of: UInt8(ascii: "="), in: b, from: j, to: endB) ?? endB
            guard equal(a, i..<eqA, b, j..<eqB) else { return false }
            let valueA = min(eqA + 1, endA)..<endA, valueB = min(eqB + 1, endB)..<endB
            if !equal(a, valueA, b, valueB) {
                guard extends(b, valueB, a, valueA) else { return false }
                grew = true
            }
            i = endA + 1
            j = endB + 1
        }
        return grew
    }

    /// Paths: the same segments but one, which extends the parent's.
    private static func extendsOneSegment(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, j = 0
        var grew = false
        while i < a.count || j < b.count {
            guard i < a.count, j < b.count else { return false }
            let endA = firstIndex(of: UInt8(ascii: "/"), in: a, from: i + 1, to: a.count) ?? a.count
            let endB = firstIndex(of: UInt8(ascii: "/"), in: b, from: j + 1, to: b.count) ?? b.count
            if !equal(a, i..<endA, b, j..<endB) {
                guard !grew, extends(b, (j + 1)..<endB, a, (i + 1)..<endA) else { return false }
                grew = true
            }
            i = endA
            j = endB
        }
        return grew
    }

    /// `long` is `short` with more bytes after it, and is not a number.
    private static func extends(_ longBytes: UnsafeBufferPointer<UInt8>, _ long: Range<Int>,
                                _ shortBytes: UnsafeBufferPointer<UInt8>, _ short: Range<Int>) -> Bool {
        guard long.count > short.count, !short.isEmpty, valueClass(longBytes, long) != ValueClass.number else { return false }
        return equal(longBytes, long.lowerBound..<(long.lowerBound + short.count), shortBytes, short)
    }

    private static func parameterEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "&"), bytes[index] != UInt8(ascii: "#") { index += 1 }
        return index
    }

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        equal(bytes, a, bytes, b)
    }

    private static func equal(_ x: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ y: UnsafeBufferPointer<UInt8>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound, j = b.lowerBound
        while i < a.upperBound {
            if x[i] != y[j] { return false }
            i += 1
            j += 1
        }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Runs `body` over the UTF-8 bytes of `text` without copying them (native strings are
    /// contiguous).
    private static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
