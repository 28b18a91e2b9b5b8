#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PathMapper {
    /// The relative URL to write into the file at `source` so that it points to `target`.
    ///
    /// Both paths are relative to the same site folder, as returned by
    /// ``relativePath(for:contentType:)``. Each name is percent-encoded for use in a URL:
    /// everything except unreserved characters and `!$&'()*+,;=@` is encoded, so `%`, `#`, `?`,
    /// `:`, `^`, spaces and non-ASCII (as UTF-8) cannot be misread by a browser or by the local
    /// server. A file name literally containing `%20` is written as `%2520`.
    /// - Parameters:
    ///   - source: the path of the file the link is written into.
    ///   - target: the path of the file the link points to.
    ///   - fragment: the fragment to append after `#` (already URL-encoded, as in
    ///     ``WebURL/fragment``); `nil` or empty for none.
    public static func relativeLink(from source: String, to target: String, fragment: String?) -> String {
        appendingFragment(fragment, to: relativeLink(from: source, to: target))
    }

    /// ``relativeLink(from:to:fragment:)`` without a fragment: what a document's references to
    /// one file share, whatever their fragments (see ``appendingFragment(_:to:)``).
    public static func relativeLink(from source: String, to target: String) -> String {
        var source = source, target = target
        return source.withUTF8 { s in target.withUTF8 { t in relativeLink(s, t) } }
    }

    /// Whether `written`, a reference as it stands in the file at `source`, already leads to
    /// the file at `target` with `fragment`, as a browser resolves it from that file (from disk
    /// or through `serve`). Such a reference can stay as the origin wrote it
    /// (`../mod/core.html` where ``relativeLink(from:to:fragment:)`` would write `core.html`),
    /// so a page whose links already work offline keeps its bytes.
    ///
    /// True only for a relative path of plain characters (letters, digits, `-._~!$'()*+,;=@`
    /// and `/`) whose `.` and `..` segments stay inside the site folder, that names a file (not
    /// a folder), followed by no fragment when `fragment` is nil or empty, else by `#` and the
    /// fragment exactly as ``relativeLink(from:to:fragment:)`` writes it. Anything else (`%`,
    /// `&`, `?`, `:`, a leading `/`, an empty segment) is false, and the link is rewritten.
    /// - Parameters:
    ///   - written: the reference's bytes in the document (an attribute value or CSS URL).
    ///   - source: the path of the document's file, relative to the site folder.
    ///   - target: the path of the file the reference must lead to.
    ///   - fragment: the resolved URL's fragment (``WebURL/fragment``), or nil.
    public static func leadsTo(_ written: ArraySlice<UInt8>, from source: String, to target: String, fragment: String?) -> Bool {
        written.withUnsafeBufferPointer { leadsTo($0, from: source, to: target, fragment: fragment) }
    }

    /// ``leadsTo(_:from:to:fragment:)`` for a value given as text (a reference's decoded value).
    public static func leadsTo(_ written: String, from source: String, to target: String, fragment: String?) -> Bool {
        var written = written
        return written.withUTF8 { leadsTo($0, from: source, to: target, fragment: fragment) }
    }

    /// ``leadsTo(_:from:to:fragment:)`` on the bytes. It runs for every reference to a mirrored
    /// file, so a written file name that differs from the target's is refused first, and the
    /// resolved path is built in a stack buffer.
    static func leadsTo(_ written: UnsafeBufferPointer<UInt8>, from source: String, to target: String, fragment: String?) -> Bool {
        guard let first = written.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "#") else { return false }
        let hash = written.firstIndex(of: UInt8(ascii: "#")) ?? written.count
        let nameStart = written[..<hash].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        var source = source, target = target
        return target.withUTF8 { target -> Bool in
            // The quick refusal: the target's file name is the written one.
            let name = UnsafeBufferPointer(rebasing: written[nameStart..<hash])
            guard !name.isEmpty, name.count <= target.count,
                  target.count == name.count || target[target.count - name.count - 1] == UInt8(ascii: "/"),
                  memcmp(target.baseAddress! + (target.count - name.count), name.baseAddress!, name.count) == 0
            else { return false }
            let resolved: Bool = source.withUTF8 { source in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: source.count + hash + 1) { path in
                    // The folder the document is in (its path up to its last `/`), then each segment.
                    var length = (source.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? 0
                    for i in 0..<length { path[i] = source[i] }
                    var segmentStart = 0
                    for index in 0...hash {
                        guard index < hash, written[index] != UInt8(ascii: "/") else {
                            let count = index - segmentStart
                            if count == 0 { return false }  // `a//b`, `dir/`
                            let dots = written[segmentStart..<index].allSatisfy { $0 == UInt8(ascii: ".") } && count <= 2 ? count : 0
                            if index == hash {
                                guard dots == 0 else { return false }  // a folder
                                for i in segmentStart..<index { path[length] = written[i]; length += 1 }
                                break
                            }
                            if dots == 2 {
                                // Up one folder; none left means above the site folder.
                                guard length > 0 else { return false }
                                length -= 1
                                while length > 0, path[length - 1] != UInt8(ascii: "/") { length -= 1 }
                            } else if dots == 0 {
                                for i in segmentStart...index { path[length] = written[i]; length += 1 }
                            }
                            segmentStart = index + 1
                            continue
                        }
                        if !Self.isPlainInLink(written[index]) { return false }
                    }
                    return length == target.count && memcmp(path.baseAddress!, target.baseAddress!, length) == 0
                }
            }
            guard resolved else { return false }
            let hasFragment = hash < written.count
            guard let fragment, !fragment.isEmpty else { return !hasFragment }
            guard hasFragment else { return false }
            // As written, the fragment is the resolved one, with nothing for relativeLink to encode.
            let writtenFragment = UnsafeBufferPointer(rebasing: written[(hash + 1)...])
            var expected = fragment
            return expected.withUTF8 { expected in
                expected.count == writtenFragment.count && !expected.contains(where: Self.mustEncodeInFragment)
                    && memcmp(expected.baseAddress!, writtenFragment.baseAddress!, expected.count) == 0
            }
        }
    }

    /// The bytes ``leadsTo(_:from:to:fragment:)`` accepts in a path as written: unreserved,
    /// the sub-delimiters but `&` (which may begin a character reference), and `@`.
    @inline(__always)
    private static func isPlainInLink(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: "&") && WebURLBytes.isUnreservedOrSubDelimiter(byte)
    }

    /// `link` followed by `#` and `fragment` encoded as ``relativeLink(from:to:fragment:)``
    /// encodes it; `link` itself for a `nil` or empty fragment.
    public static func appendingFragment(_ fragment: String?, to link: String) -> String {
        guard let fragment, !fragment.isEmpty else { return link }
        // One allocation for the result (a large page has tens of thousands of anchors to
        // rewrite); a fragment that needs no encoding is not copied first.
        let encoded = encodeFragment(fragment)
        var result = link
        result.reserveCapacity(link.utf8.count + 1 + encoded.utf8.count)
        result.append("#")
        result.append(encoded)
        return result
    }

    /// ``relativeLink(from:to:fragment:)`` without the fragment, in one pass over the bytes of
    /// both paths and one allocation (it runs for every reference of every document).
    private static func relativeLink(_ source: UnsafeBufferPointer<UInt8>, _ target: UnsafeBufferPointer<UInt8>) -> String {
        // Skip the folders both paths share. A path's last component is its file name, never a
        // folder; empty components (`a//b`) do not count.
        var s = nextComponent(source, from: 0)
        var t = nextComponent(target, from: 0)
        while let sc = s, let tc = t {
            let sNext = nextComponent(source, from: sc.upperBound)
            let tNext = nextComponent(target, from: tc.upperBound)
            guard sNext != nil, tNext != nil, sc.count == tc.count,
                  memcmp(source.baseAddress! + sc.lowerBound, target.baseAddress! + tc.lowerBound, sc.count) == 0
            else { break }
            s = sNext
            t = tNext
        }
        // One `../` for each folder of the source left.
        var ups = 0
        var c = s
        while let component = c {
            c = nextComponent(source, from: component.upperBound)
            if c != nil { ups += 1 }
        }
        let start = t?.lowerBound ?? target.count
        let capacity = max(2, 3 * ups + 3 * (target.count - start))
        return String(unsafeUninitializedCapacity: capacity) { out in
            var n = 0
            for _ in 0..<ups {
                out[n] = UInt8(ascii: "."); out[n + 1] = UInt8(ascii: "."); out[n + 2] = UInt8(ascii: "/")
                n += 3
            }
            var component = t
            var first = true
            while let range = component {
                if !first { out[n] = UInt8(ascii: "/"); n += 1 }
                first = false
                for p in range {
                    let byte = target[p]
                    if WebURLBytes.isUnreservedOrSubDelimiter(byte) {
                        out[n] = byte
                        n += 1
                    } else {
                        out[n] = UInt8(ascii: "%")
                        out[n + 1] = FileNameEncoding.hexDigit(byte >> 4)
                        out[n + 2] = FileNameEncoding.hexDigit(byte & 0x0F)
                        n += 3
                    }
                }
                component = nextComponent(target, from: range.upperBound)
            }
            if n == 0 {
                out[0] = UInt8(ascii: "."); out[1] = UInt8(ascii: "/")
                n = 2
            }
            return n
        }
    }

    /// The next non-empty `/`-separated component at or after `from`, or nil at the end.
    @inline(__always)
    private static func nextComponent(_ path: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int>? {
        var i = from
        while i < path.count, path[i] == UInt8(ascii: "/") { i += 1 }
        guard i < path.count else { return nil }
        var j = i + 1
        while j < path.count, path[j] != UInt8(ascii: "/") { j += 1 }
        return i..<j
    }

    /// Appends one path component, percent-encoded for an href.
    static func appendEncodedForLink(_ component: ArraySlice<UInt8>, to out: inout [UInt8]) {
        for byte in component {
            if WebURLBytes.isUnreservedOrSubDelimiter(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), FileNameEncoding.hexDigit(byte >> 4), FileNameEncoding.hexDigit(byte & 0x0F)]
            }
        }
    }

    /// Percent-encodes one path component for an href.
    static func encodeForLink(_ component: String) -> String {
        var out: [UInt8] = []
        appendEncodedForLink(Array(component.utf8)[...], to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes what may not appear raw in a fragment; existing `%XX` stay as they are. A
    /// fragment with nothing to encode is returned as it is.
    static func encodeFragment(_ fragment: String) -> String {
        let utf8 = fragment.utf8
        let length = utf8.reduce(0) { $0 + (mustEncodeInFragment($1) ? 3 : 1) }
        if length == utf8.count { return fragment }
        return String(unsafeUninitializedCapacity: length) { out in
            var index = 0
            for byte in utf8 {
                if mustEncodeInFragment(byte) {
                    out[index] = UInt8(ascii: "%")
                    out[index + 1] = FileNameEncoding.hexDigit(byte >> 4)
                    out[index + 2] = FileNameEncoding.hexDigit(byte & 0x0F)
                    index += 3
                } else {
                    out[index] = byte
                    index += 1
                }
            }
            return index
        }
    }

    /// Whether ``encodeFragment(_:)`` percent-encodes `byte`.
    @inline(__always)
    static func mustEncodeInFragment(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`")
    }
}

/// RFC 3986 character classes needed when writing links.
enum WebURLBytes {
    /// Unreserved, sub-delims and `@`: safe raw in any relative path segment.
    static func isUnreservedOrSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }
}
