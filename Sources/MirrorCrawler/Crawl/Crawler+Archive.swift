import MirrorCore
import MirrorHTTP
import MirrorStore

/// The crawl's side of archive output (``SiteJob/capture``): every request carries the capture
/// options, so the recorder gets each exchange from the fetch that fills the mirror; and a URL
/// the archive holds no full capture of is fetched without validators, so that a `304` never
/// stands in the archive for a payload it lacks (the first `--warc` run over an existing mirror
/// downloads everything once).
extension Crawler {
    /// The previous manifest entry to revalidate `url` with, unless the archive lacks it.
    func revalidatable(_ url: WebURL, in previous: PreviousSnapshot?) -> ManifestEntry? {
        guard archiveHolds(url.string) else { return nil }
        return previous?.revalidatable(url)
    }

    /// Whether a conditional request for `url` may be sent: always without an archive.
    func archiveHolds(_ url: String) -> Bool {
        job.capture?.recorder?.hasCapture(of: url) ?? true
    }
}
