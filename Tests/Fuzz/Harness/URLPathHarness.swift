import MirrorCore
import MirrorStore

/// Fuzz target `url-path`: URL parsing and normalisation, then ``PathMapper``.
///
/// Input: up to three lines (LF-separated; WebURL drops tabs and newlines anyway): two
/// references resolved against a fixed page URL (absolute URLs, network paths, `..` tricks,
/// percent-encodings…) and an optional `Content-Type`. Invariants:
/// - normalisation is idempotent: parsing a URL's own serialisation gives the same URL;
/// - every mapped path is safe and stays inside the site folder (``PathChecks``);
/// - the mapping is deterministic and ignores the fragment;
/// - two different URLs never share a file, nor does one's file sit where the other needs a
///   directory, even on a case-insensitive file system;
/// - ``PathMapper/relativeLink(from:to:fragment:)`` between the two files resolves back to
///   the target file, both by plain path arithmetic and through WebURL's own resolution.
public enum URLPathHarness {
    static let name = "url-path"
    static let base = WebURL("https://site.example/dir/page.html")!
    static let mapper = PathMapper(primaryOrigin: base)
    /// A mapper with the smallest limits, so that shortening and folding are reached often.
    static let tightMapper = PathMapper(primaryOrigin: base, maximumComponentLength: 64, maximumDirectoryDepth: 2, maximumPathLength: 0)

    /// Runs the target on one input.
    /// - Parameter data: the fuzz input.
    /// - Returns: the first broken invariant, or nil.
    public static func run(_ data: [UInt8]) -> FuzzViolation? {
        let lines = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let contentType = lines.count > 2 ? lines[2] : nil
        var urls: [WebURL] = []
        for reference in lines.prefix(2) {
            guard let url = base.resolve(reference) else { continue }
            if let violation = checkNormalisation(url) { return violation }
            urls.append(url)
        }
        for mapper in [mapper, tightMapper] {
            var paths: [String] = []
            for url in urls {
                let path = mapper.relativePath(for: url, contentType: contentType)
                if let violation = PathChecks.check(path: path, mapper: mapper, url: url) { return violation }
                let again = PathMapper(primaryOrigin: mapper.primaryOrigin, maximumComponentLength: mapper.maximumComponentLength,
                                       maximumDirectoryDepth: mapper.maximumDirectoryDepth, maximumPathLength: mapper.maximumPathLength)
                    .relativePath(for: url.withoutFragment, contentType: contentType)
                guard again == path else {
                    return FuzzViolation(target: name, invariant: "the mapping is deterministic and ignores the fragment",
                                         evidence: "\(url.string) → \(Evidence.text(path)), then \(Evidence.text(again))")
                }
                paths.append(path)
            }
            guard urls.count == 2 else { continue }
            if let violation = PathChecks.checkDistinct(urls[0], paths[0], urls[1], paths[1]) { return violation }
            for (from, to) in [(0, 1), (1, 0)] {
                let link = PathMapper.relativeLink(from: paths[from], to: paths[to], fragment: urls[to].fragment)
                if let violation = PathChecks.checkLink(link, from: paths[from], to: paths[to]) { return violation }
            }
        }
        return nil
    }

    /// Normalisation is idempotent: the serialisation parses back to the same URL.
    static func checkNormalisation(_ url: WebURL) -> FuzzViolation? {
        guard let reparsed = WebURL(url.string) else {
            return FuzzViolation(target: name, invariant: "a normalised URL parses again", evidence: Evidence.text(url.string))
        }
        guard reparsed == url, reparsed.string == url.string else {
            return FuzzViolation(target: name, invariant: "normalisation is idempotent",
                                 evidence: "\(Evidence.text(url.string)) reparses as \(Evidence.text(reparsed.string))")
        }
        return nil
    }
}
