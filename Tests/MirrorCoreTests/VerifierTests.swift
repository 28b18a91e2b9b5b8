import Foundation
import Testing
@testable import MirrorTestSupport

/// Tests of the test-support `MirrorVerifier` (on small hand-made mirror folders) and of
/// `scripts/gen-site.py` through `SiteGenerator`.

private let origin = "https://127.0.0.1:8443/"

/// Writes `files` (path → text) into a fresh folder.
private func folder(_ files: [String: String]) throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory(prefix: "verifier")
    for (path, text) in files {
        let url = scratch.appending(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return scratch
}

private func page(_ body: String) -> String {
    "<!doctype html><html><head><meta charset=utf-8><title>t</title></head><body>\(body)</body></html>"
}

@Suite struct MirrorVerifierFolderTests {
    @Test func aGoodMirrorIsClean() throws {
        let mirror = try folder([
            "index.html": page("""
                <link rel=stylesheet href="css/site.css"><a href="docs/">Docs</a>
                <a href="docs/page@.html#part-2">Part</a> <a href="about">About</a> <a href="#top">Top</a>
                <img src="img/caf%C3%A9.png" srcset="img/caf%C3%A9.png 1x, img/a,b.png 2x">
                <a href="https://example.invalid/x">away</a> <a href="mailto:a@example.invalid">mail</a>
                <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
                """),
            "docs/index.html": page(#"<a href="../">Home</a> <a href="./page@.html">Page</a>"#),
            "docs/page@.html": page(#"<a href="../index.html">Home</a> <a href=".">Docs</a>"#),
            "about": page(#"<a href="index.html">Home</a>"#),
            "css/site.css": #"@import "more.css"; body { background: url(../img/a,b.png) }"#,
            "css/more.css": "p { background: url('../img/caf%C3%A9.png') }",
            "img/café.png": "png", "img/a,b.png": "png",
        ])
        let report = MirrorVerifier.verify(snapshotRoot: mirror.url, originPrefixes: [origin])
        #expect(report.isClean, "\(report)")
        #expect(report.checkedFiles == 6)
        #expect(report.resolvedReferences == 15, "\(report)")
        #expect(report.externalReferences == 1)
        // mailto: and data: (`#top` is no reference: the extractor leaves fragment-only values out)
        #expect(report.skippedReferences == 2)
        #expect(report.checkedReferences == 18)
    }

    @Test func brokenLocalReferencesAreReportedWithTheirReason() throws {
        let mirror = try folder([
            "index.html": page("""
                <a href="missing.html">1</a> <a href="page.html?x=1">2</a> <a href="empty/">3</a>
                <a href="docs">4</a> <a href="bad%zz.html">5</a> <a href="file:///etc/hosts">6</a>
                <a href="docs/">fine</a>
                """),
            "docs/index.html": page(""),
            "empty/readme.txt": "no index here",
        ])
        let report = MirrorVerifier.verify(snapshotRoot: mirror.url, originPrefixes: [origin])
        let reasons = Dictionary(uniqueKeysWithValues: report.broken.map { ($0.reference, $0.reason) })
        #expect(reasons == [
            "missing.html": .missingTarget(path: "missing.html"),
            "page.html?x=1": .hasQuery,
            "empty/": .directoryWithoutIndex(path: "empty/"),
            "docs": .targetIsDirectory(path: "docs"),
            "bad%zz.html": .invalidPercentEncoding,
            "file:///etc/hosts": .absoluteFileURL,
        ])
        #expect(report.broken.allSatisfy { $0.file == "index.html" })
        #expect(report.resolvedReferences == 1)
        #expect(!report.isClean)
    }

    @Test func absoluteReferencesToTheOriginAreReported() throws {
        let mirror = try folder([
            "index.html": page("""
                <a href="https://127.0.0.1:8443/docs/">1</a> <img src="HTTPS://127.0.0.1:8443/a.png">
                <script src="//127.0.0.1:8443/app.js"></script> <a href="https://127.0.0.1:9443/x">other port</a>
                """),
            "style.css": "body { background: url(https://127.0.0.1:8443/bg.png) }",
        ])
        let report = MirrorVerifier.verify(snapshotRoot: mirror.url, originPrefixes: [origin])
        #expect(Set(report.pointsAtOrigin.map(\.reference)) == [
            "https://127.0.0.1:8443/docs/", "HTTPS://127.0.0.1:8443/a.png", "//127.0.0.1:8443/app.js",
            "https://127.0.0.1:8443/bg.png",
        ])
        #expect(report.pointsAtOrigin.contains(MirrorVerifier.Finding(file: "style.css", reference: "https://127.0.0.1:8443/bg.png")))
        #expect(report.externalReferences == 1)
        #expect(report.broken.isEmpty && report.escapesRoot.isEmpty)
    }

    @Test func referencesThatLeaveTheRootAreReported() throws {
        let outside = try folder(["secret.html": page("")])
        let mirror = try folder([
            "site/index.html": page("""
                <a href="../../secret.html">1</a> <img src="/etc/hosts"> <a href="link.html">3</a> <a href="./">ok</a>
                """),
        ])
        try FileManager.default.createSymbolicLink(
            at: mirror.appending("site/link.html"), withDestinationURL: outside.appending("secret.html"))
        let report = MirrorVerifier.verify(snapshotRoot: mirror.appending("site"), originPrefixes: [origin])
        #expect(Set(report.escapesRoot.map(\.reference)) == ["../../secret.html", "/etc/hosts", "link.html"])
        #expect(report.broken.isEmpty)
        #expect(report.resolvedReferences == 1)
        #expect(report.checkedFiles == 1, "a symbolic link is not read as a document of the mirror")
    }

    @Test func aLocalBaseChangesTheFolderAndAnOriginBaseMakesLinksPointAtTheOrigin() throws {
        let mirror = try folder([
            "local.html": page(#"<base href="img/"><img src="a.png"><a href="../local.html">self</a>"#),
            "remote.html": page(#"<base href="https://127.0.0.1:8443/x/"><img src="a.png">"#),
            "img/a.png": "png",
        ])
        let report = MirrorVerifier.verify(snapshotRoot: mirror.url, originPrefixes: [origin])
        #expect(report.resolvedReferences == 2, "\(report)")
        #expect(report.pointsAtOrigin == [MirrorVerifier.Finding(file: "remote.html", reference: "a.png")])
        #expect(report.broken.isEmpty)
    }

    @Test func onlyHTMLCSSAndExtensionlessHTMLFilesAreChecked() throws {
        let mirror = try folder([
            "page.htm": page(#"<a href="gone.html">x</a>"#),
            "notes": "  \n<!DOCTYPE HTML><a href=\"gone2.html\">x</a>",
            "data": "just text with <a href=\"gone3.html\">",
            "script.js": "location.href = 'gone4.html'",
        ])
        let report = MirrorVerifier.verify(snapshotRoot: mirror.url, originPrefixes: [origin])
        #expect(report.checkedFiles == 2)
        #expect(Set(report.broken.map(\.reference)) == ["gone.html", "gone2.html"])
    }
}

@Suite struct MirrorVerifierClassificationTests {
    typealias C = MirrorVerifier.Classification

    @Test(arguments: [
        ("", C.skipped), ("#top", .skipped), ("mailto:x@example.invalid", .skipped), (" javascript:void(0)", .skipped),
        ("data:,x", .skipped), ("https://example.invalid/", .external), ("https://127.0.0.1:8443/a", .pointsAtOrigin),
        ("a.html", .local(segments: ["d", "a.html"], isDirectory: false)),
        ("  a.html#f  ", .local(segments: ["d", "a.html"], isDirectory: false)),
        ("../b/", .local(segments: ["b"], isDirectory: true)), ("..", .local(segments: [], isDirectory: true)),
        ("./", .local(segments: ["d"], isDirectory: true)), ("%2e%2e/x", .local(segments: ["x"], isDirectory: false)),
        ("a%20b.png", .local(segments: ["d", "a b.png"], isDirectory: false)),
        ("x%2Fy", .broken(.invalidPercentEncoding)), ("%C3%28", .broken(.invalidPercentEncoding)),
        ("?q", .broken(.hasQuery)), ("a.css?v=1#x", .broken(.hasQuery)),
        ("../../x", .escapesRoot), ("/x", .escapesRoot), ("file:///x", .broken(.absoluteFileURL)),
    ])
    func classification(reference: String, expected: C) {
        #expect(MirrorVerifier.classify(reference, directory: ["d"], originPrefixes: [origin]) == expected)
    }
}

@Suite struct SiteGeneratorTests {
    /// The raw generated site is a real web site, not a mirror: verifying it must find exactly
    /// its root-relative and query references, and every other local reference must resolve.
    @Test func everyReachableURLOfAGeneratedSiteExistsAndTheVerifierFindsItsWebOnlyReferences() throws {
        let scratch = try TemporaryDirectory(prefix: "gen-site")
        let site = try SiteGenerator.generate(into: scratch.appending("www"), pages: 60, cdnHost: "127.0.0.1:9443")
        #expect(site.expected.htmlPages >= 60)
        for resource in site.expected.resources {
            #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent(resource.file).path), "\(resource)")
        }
        #expect(site.expected.paths.contains("/kitchen/"))
        #expect(site.expected.paths.contains("/img/caf%C3%A9.png"))
        #expect(site.expected.paths.contains("/about"))
        #expect(site.expected.cdn?.paths.contains("/css/cdn.css") == true)
        #expect(site.typesConfiguration.contains("default_type text/html;"))

        let report = MirrorVerifier.verify(snapshotRoot: site.root, originPrefixes: ["https://127.0.0.1:9443/"])
        #expect(report.unreadable.isEmpty, "\(report)")
        #expect(report.broken.allSatisfy { $0.reason == .hasQuery }, "\(report)")
        #expect(report.broken.contains { $0.reference == "../fonts/body.eot?#iefix" })
        #expect(Set(report.escapesRoot.map(\.reference)) == ["/favicon.ico", "/img/rooted.png"])
        #expect(report.pointsAtOrigin.contains { $0.reference == "//127.0.0.1:9443/js/cdn.js" })
        #expect(report.resolvedReferences > 10 * site.expected.htmlPages, "\(report)")
    }

    @Test func theSameSeedGivesTheSameSite() throws {
        let scratch = try TemporaryDirectory(prefix: "gen-site")
        let first = try SiteGenerator.generate(into: scratch.appending("a"), pages: 30, seed: 7)
        let second = try SiteGenerator.generate(into: scratch.appending("b"), pages: 30, seed: 7)
        let other = try SiteGenerator.generate(into: scratch.appending("c"), pages: 30, seed: 8)
        #expect(first.expected.paths == second.expected.paths)
        let page = "docs/s00/t00/p00005.html"
        let bytes = { (site: SiteGenerator.Site) in try Data(contentsOf: site.root.appendingPathComponent(page)) }
        #expect(try bytes(first) == bytes(second))
        #expect(try bytes(first) != bytes(other))
    }
}
