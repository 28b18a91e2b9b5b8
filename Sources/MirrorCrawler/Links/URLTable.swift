import MirrorCore

/// Interned URLs (normalised, without fragment): each distinct URL is kept once and known by a
/// 32-bit number, so that thousands of documents can remember what their references point at
/// without a string per reference.
///
/// Keyed by ``MirrorCore/WebURL``, whose hash is computed once per URL: the URLs a crawl
/// resolves are shared (``ResolutionCache``), so numbering a document's targets hashes no text.
struct URLTable: Sendable {
    /// The texts, by number.
    private(set) var strings: [String] = []
    private var numbers: [WebURL: UInt32] = [:]

    /// The number of `url`, added if new.
    mutating func number(of url: WebURL) -> UInt32 {
        if let number = numbers[url] { return number }
        let number = UInt32(strings.count)
        strings.append(url.string)
        numbers[url] = number
        return number
    }

    /// How many URLs the table holds.
    var count: Int { strings.count }
}
