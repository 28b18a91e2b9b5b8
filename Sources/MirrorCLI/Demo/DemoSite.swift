import Foundation

/// The sample site `mtls-mirror demo` serves from its embedded origin: eight small pages and
/// the requisites a real site has, bundled in the binary so the demo needs no network and no
/// files from the repository.
///
/// It exercises what a mirror must get right: a stylesheet with `@import`, `@font-face` and
/// `url()`; `srcset` on `<img>` and `<source>` inside `<picture>`; an SVG sprite used through
/// `<use href="…#id">`; a `<meta http-equiv="refresh">` redirect; and one page deeper than
/// the demo's crawl depth, which only `--live` fetches (on first request).
enum DemoSite {
    /// One file of the site: its path below the site root and its bytes.
    struct File: Sendable {
        /// The path, relative, with `/` separators (`css/site.css`).
        let path: String
        /// The content.
        let bytes: [UInt8]

        init(_ path: String, _ text: String) {
            self.path = path
            self.bytes = Array(text.utf8)
        }

        init(_ path: String, base64: String) {
            self.path = path
            self.bytes = Data(base64Encoded: base64).map { [UInt8]($0) } ?? []
        }
    }

    /// How many link levels the demo crawl follows from the start page.
    static let crawlDepth = 2

    /// The page one level beyond ``crawlDepth``: not in the mirror (a placeholder says so); `--live` fetches it.
    static let beyondDepthPage = "docs/archive/2019.html"

    /// Every file of the site.
    static var files: [File] { pages + assets }

    /// The HTML pages' paths, in site order.
    static var pagePaths: [String] { pages.map(\.path) }

    /// The pages the demo crawl mirrors (all but ``beyondDepthPage``).
    static var mirroredPagePaths: [String] { pagePaths.filter { $0 != beyondDepthPage } }

    /// Writes every file below `directory` (which must exist), creating sub-folders.
    ///
    /// - Parameter directory: the site root.
    /// - Throws: ``DemoError/cannotWrite(path:reason:)`` naming the file.
    static func write(into directory: String) throws(DemoError) {
        for file in files {
            let path = directory + "/" + file.path
            let folder = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(file.bytes).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                throw .cannotWrite(path: path, reason: error.localizedDescription)
            }
        }
    }
}
