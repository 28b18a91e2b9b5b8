import Foundation
import MirrorCore

/// The page written at the reserved local path of an in-scope page that the crawl linked but did
/// not mirror (beyond the limits, disallowed by robots.txt, redirected out of scope, failed), so
/// that the link opens a page that says why instead of a missing file. It links nowhere (a link
/// to the origin would be one more in-scope reference to it). A failed requisite gets an empty
/// file instead (a browser shows the same broken image or empty style it would have shown from
/// the origin).
///
/// The page does not name its URL (the manifest and the run's report do, and a browser shows
/// the link it followed): every placeholder with the same reason is then the same bytes, and
/// the store writes one file and hard-links it at the other paths. A site with hundreds of
/// broken links (SQLite's documentation has 427) would otherwise cost hundreds of new inodes,
/// and right after a large tree was deleted, ext4 without a journal skips each recently freed
/// inode again for every new one (issue #27).
///
/// `serve --live` recognises these files through the manifest (a local path without a
/// status) and fetches the page instead of serving them.
enum NotMirroredPage {
    /// The text a placeholder page starts with.
    static let marker = "<!doctype html>\n<!-- mtls-mirror: not mirrored -->\n"

    /// The page for a URL that is not in the mirror for `reason`.
    /// - Parameters:
    ///   - reason: why it is not in the mirror.
    ///   - site: the site's name.
    ///   - date: when the snapshot was made.
    static func html(reason: NotMirroredReason, site: String, date: Date) -> [UInt8] {
        let explanation: String
        switch reason {
        case .heldBack(let heldBack) where heldBack.rule == .depth:
            explanation = "It is beyond the crawl limits of this copy (its <code>depth</code> rule): \(htmlEscape(heldBack.detail)) "
                + "(<code>--depth</code>, 20 by default; <code>--depth inf</code> lifts it)."
        case .heldBack(let heldBack):
            let rule = heldBack.rule
            explanation = "The crawl held it back by its <code>\(rule.rawValue)</code> rule, one of the defences "
                + "against crawler traps: \(htmlEscape(rule.explanation)) (\(htmlEscape(heldBack.detail))). "
                + "If this page belongs in the copy, raise the limit with <code>\(rule.option)</code> "
                + "(<code>\(rule.configKey)</code> in config.json); <code>\(rule.option) off</code> switches the rule off."
        case .stopped:
            explanation = "The run that made this copy stopped early (its time budget, <code>--max-run-time</code>, "
                + "ran out, or it was interrupted) before it reached this page; the next run fetches it."
        case .beyondLimits:
            explanation = "It is beyond the crawl limits of this copy (<code>--depth</code>, <code>--max-pages</code>, <code>--max-bytes</code>)."
        case .failed(.robots, _):
            explanation = "The site's robots.txt disallows it, and the crawl honours robots.txt (<code>--ignore-robots</code> turns that off)."
        case .failed(.httpStatus(let status), _):
            explanation = "The origin answered HTTP \(status) (<code>http-\(status)</code>)."
        case .gone(let status):
            explanation = "The origin answered HTTP \(status) (<code>http-\(status)</code>): it was removed from the origin "
                + "since the previous snapshot."
        case .failed(let kind, let cause):
            explanation = "The crawl could not fetch it (<code>" + htmlEscape(kind.name) + "</code>): " + htmlEscape(cause) + "."
        }
        let text = marker + """
            <html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
            <title>Not in this mirror</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:42em;margin:3em auto;padding:0 1em;color:#222}code{word-break:break-all}</style>
            </head><body>
            <h1>Not in this mirror</h1>
            <p>A page of this copy links here, but the page this address stands for was not mirrored.</p>
            <p>\(explanation)</p>
            <p><code>mtls-mirror serve --live</code> fetches it over mTLS when a browser asks for it; a later
            <code>mtls-mirror mirror</code> or <code>refresh</code> of site <code>\(htmlEscape(site))</code> tries it again.</p>
            <p><small>Snapshot of \(htmlEscape(UTCTime.iso8601(date))). Its URL is listed in the snapshot's
            <code>_mirror/manifest.tsv</code> and <code>_mirror/report.json</code>.</small></p>
            </body></html>

            """
        return Array(text.utf8)
    }
}
