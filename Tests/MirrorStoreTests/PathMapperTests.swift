import Foundation
@testable import MirrorCore
import Testing
@testable import MirrorStore

@Suite struct PathMapperTests {
    static let site = WebURL("https://site.example/")!
    static let mapper = PathMapper(primaryOrigin: site)

    static func map(_ url: String, _ contentType: String? = "text/html") throws -> String {
        let parsed = try #require(site.resolve(url))
        return mapper.relativePath(for: parsed, contentType: contentType)
    }

    /// URL (resolved against the site), Content-Type → expected relative path.
    static let table: [(String, String?, String)] = [
        ("/", "text/html", "index.html"),
        ("/", nil, "index.html"),
        ("/", "text/css", "index.css"),
        ("/docs/guide/", "text/html; charset=utf-8", "docs/guide/index.html"),
        ("/a/b.css", "text/css", "a/b.css"),
        ("/a/b.css", nil, "a/b.css"),
        ("/img/logo.png", "image/png", "img/logo.png"),
        ("/page", "text/html", "page@.html"),
        ("/page/x", "text/html", "page/x@.html"),
        ("/page.html", "text/html", "page.html"),
        ("/index.html", "text/html", "index.html@.html"),
        ("/index.min.js", "text/javascript", "index.min.js"),
        ("/search?q=a&b=c", "text/html", "search@q=a&b=c.html"),
        ("/s.css?v=2", "text/css", "s.css@v=2.css"),
        ("/s.css?v=2", nil, "s.css@v=2.css"),
        ("/?p=2", "text/html", "@p=2.html"),
        ("/q?a/b?c:d@e", "text/html", "q@a^2Fb^3Fc^3Ad@e.html"),
        ("/report.php", "application/pdf", "report.php@.pdf"),
        ("/file.weird", nil, "file.weird@.html"),
        ("/file.weird", "application/x-unknown", "file.weird@.bin"),
        ("/data", "application/vnd.api+json", "data@.json"),
        ("/a.css/x.png", "image/png", "a^2Ecss/x.png"),
        ("/v1.2/x.png", "image/png", "v1.2/x.png"),
        ("/a%20b.pdf", "application/pdf", "a%20b.pdf"),
        // Encoded UTF-8 text is stored readable; invalid UTF-8 and invisible marks stay encoded.
        ("/caf\u{E9}.css", "text/css", "caf\u{E9}.css"),
        ("/%E6%97%A5%E6%9C%AC.png", "image/png", "\u{65E5}\u{672C}.png"),
        ("/a%FFb.png", "image/png", "a%FFb.png"),
        ("/a%E2%80%AEb.png", "image/png", "a%E2%80%AEb.png"),
        ("/a:b.css", "text/css", "a^3Ab.css"),
        ("/a*b.css", "text/css", "a^2Ab.css"),
        ("/a@b.css", "text/css", "a^40b.css"),
        ("/a^b.css", "text/css", "a%5Eb.css"),
        ("/a//b.css", "text/css", "a/^/b.css"),
        ("/x.", "text/html", "x^2E@.html"),
        ("/x./y.css", "text/css", "x^2E/y.css"),
        ("/.../y.css", "text/css", "..^2E/y.css"),
        ("/.well-known/security.txt", "text/plain", ".well-known/security.txt"),
        ("/.htaccess", "text/plain", ".htaccess@.txt"),
        ("/_hosts/x.css", "text/css", "^5Fhosts/x.css"),
        ("/_mirror/x.css", "text/css", "^5Fmirror/x.css"),
        ("/sub/_hosts/x.css", "text/css", "sub/_hosts/x.css"),
        ("/con", "text/html", "co^6E@.html"),
        ("/con.txt", "text/plain", "co^6E.txt"),
        ("/aux.tar.gz", "application/gzip", "au^78.tar.gz"),
        ("/nul/x.css", "text/css", "nu^6C/x.css"),
        ("/com1/lpt9.css", "text/css", "com^31/lpt^39.css"),
        ("/console.css", "text/css", "console.css"),
        ("/com10.css", "text/css", "com10.css"),
        ("https://cdn.example.com/x.js", "text/javascript", "_hosts/cdn.example.com/x.js"),
        ("https://cdn.example.com:8443/x.js", "text/javascript", "_hosts/cdn.example.com@https-8443/x.js"),
        ("http://site.example/x.js", "text/javascript", "_hosts/site.example@http-80/x.js"),
        ("http://[::1]:8080/a.js", "text/javascript", "_hosts/[^3A^3A1]@http-8080/a.js"),
        ("https://con/", "text/html", "_hosts/co^6E/index.html"),
        ("https://site.example:443/a.css#frag", "text/css", "a.css"),
    ]

    @Test(arguments: table)
    func mapsReadably(url: String, contentType: String?, expected: String) throws {
        #expect(try Self.map(url, contentType) == expected)
    }

    @Test func upperCaseNamesGetAHashSoCaseInsensitiveFileSystemsKeepThemApart() throws {
        let lower = try Self.map("/about/logo.png", "image/png")
        let upper = try Self.map("/About/Logo.PNG", "image/png")
        let mixed = try Self.map("/ABOUT/LOGO.png", "image/png")
        #expect(lower == "about/logo.png")
        #expect(upper.hasPrefix("About^h") && upper.hasSuffix(".PNG") && upper.contains("/Logo^h"))
        #expect(Set([lower, upper, mixed].map { $0.lowercased() }).count == 3)
        let queries = try [Self.map("/s?q=A"), Self.map("/s?q=a")]
        #expect(queries[1] == "s@q=a.html")
        #expect(queries[0].lowercased() != queries[1].lowercased())
        // The device-name rule still applies under the hash.
        #expect(try Self.map("/LPT9.png", "image/png").hasPrefix("LPT^39^h"))
    }

    @Test func longNamesAreShortenedWithAHash() throws {
        let long = String(repeating: "x", count: 500)
        let a = try Self.map("/\(long)a.css", "text/css")
        let b = try Self.map("/\(long)b.css", "text/css")
        #expect(a != b)
        #expect(a.utf8.count <= 200 && a.hasSuffix(".css") && a.contains("^t"))
        let directory = try Self.map("/\(long)/\(long)?\(long)", "text/html")
        let parts = directory.split(separator: "/")
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.utf8.count <= 200 })
        #expect(directory.hasSuffix(".html"))
        // A cut never splits a %XX escape.
        let encoded = try Self.map("/" + String(repeating: "%C3%A9", count: 100) + ".css", "text/css")
        #expect(encoded.utf8.count <= 200)
        #expect(!encoded.contains("%^t") && !encoded.contains("%C^t"))
    }

    @Test func deepPathsAreFoldedAndStayShort() throws {
        let deep = "/" + Array(repeating: "d", count: 200).joined(separator: "/") + "/f.css"
        let path = try Self.map(deep, "text/css")
        let parts = path.split(separator: "/")
        #expect(parts.count == Self.mapper.maximumDirectoryDepth + 1)
        #expect(parts[parts.count - 2].hasPrefix("^d"))
        #expect(parts.last == "f.css")
        let other = try Self.map("/" + Array(repeating: "d", count: 199).joined(separator: "/") + "/f.css", "text/css")
        #expect(other != path)
        let wide = "/" + Array(repeating: String(repeating: "w", count: 150), count: 20).joined(separator: "/") + "/f.css"
        #expect(try Self.map(wide, "text/css").utf8.count <= Self.mapper.maximumPathLength)
    }

    @Test func mappingIsDeterministic() throws {
        let again = PathMapper(primaryOrigin: try #require(WebURL("https://SITE.example:443/other")))
        for (url, type, _) in Self.table {
            let parsed = try #require(Self.site.resolve(url))
            #expect(again.relativePath(for: parsed, contentType: type) == Self.mapper.relativePath(for: parsed, contentType: type))
        }
    }

    @Test(arguments: [
        ("index.html", "a/b.css", nil, "a/b.css"),
        ("a/b/c.html", "a/d.css", nil, "../d.css"),
        ("a/b/c.html", "a/b/c.html", "top", "c.html#top"),
        ("a/x.html", "b/y z.html", nil, "../b/y%20z.html"),
        ("index.html", "search@q=a&b=c.html", nil, "search@q=a&b=c.html"),
        ("index.html", "a%20b.pdf", nil, "a%2520b.pdf"),
        ("index.html", "x#y?.html", nil, "x%23y%3F.html"),
        ("index.html", "caf\u{E9}.html", nil, "caf%C3%A9.html"),
        ("index.html", "a^3Ab.css", nil, "a%5E3Ab.css"),
        ("index.html", "a:b.html", nil, "a%3Ab.html"),
        ("_hosts/cdn/x.css", "index.html", "s p", "../../index.html#s%20p"),
        ("a/b/c/d.html", "e/f.html", "", "../../../e/f.html"),
        ("a/b.html", "a/b/c.html", "x%20y", "b/c.html#x%20y"),
        ("a/b/c.html", "a/index.html", "#", "../index.html#%23"),
        ("index.html", "a.html", "caf\u{E9}", "a.html#caf%C3%A9"),
        ("index.html", "a.html", "q\"<x>`", "a.html#q%22%3Cx%3E%60"),
        ("index.html", "a.html", "os.path.join-!$&'()*+,;=:@/?", "a.html#os.path.join-!$&'()*+,;=:@/?"),
    ] as [(String, String, String?, String)])
    func relativeLinks(source: String, target: String, fragment: String?, expected: String) {
        #expect(PathMapper.relativeLink(from: source, to: target, fragment: fragment) == expected)
    }

    /// The one-pass byte version against the plain definition (split both paths, drop the
    /// shared folders, one `../` per folder left), over random paths with repeated, empty and
    /// encoded components.
    @Test func relativeLinksMatchTheSplitDefinition() {
        func oracle(_ source: String, _ target: String) -> String {
            let s = source.split(separator: "/").map(String.init)
            let t = target.split(separator: "/").map(String.init)
            let sDirectory = s.dropLast(), tDirectory = t.dropLast()
            var common = 0
            while common < sDirectory.count, common < tDirectory.count, sDirectory[common] == tDirectory[common] { common += 1 }
            var link = String(repeating: "../", count: sDirectory.count - common)
            link += t[common...].map { PathMapper.encodeForLink($0) }.joined(separator: "/")
            return link.isEmpty ? "./" : link
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "ab", "x y", "é", "index.html", "", "a.css", "%41", "q?x=1"]
        func path() -> String {
            (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
        }
        for _ in 0..<20_000 {
            let source = path(), target = path()
            #expect(PathMapper.relativeLink(from: source, to: target, fragment: nil) == oracle(source, target),
                    "\(source) → \(target)")
        }
    }

    /// The one-buffer way for plain paths against the general way, over generated URLs with
    /// every feature that sends a name the general way (case, dots, escapes, reserved and
    /// device names, empty, long and deep segments, queries, other hosts).
    @Test func directPathsMatchTheGeneralScheme() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "docs", "s01", "t-2", "x_y", "_hosts", "_mirror", "_x", "con", "Aux", "com1", "lpt9x", "a.b",
                      "a.css", "index.html", "page", "P", "%41", "%C3%A9", "caf%C3%A9", "a^b", "a@b", "a:b", "trail.",
                      "", String(repeating: "l", count: 199), String(repeating: "m", count: 230), "~u", "a+b,c;d=e"]
        let origins = ["https://site.example", "https://site.example:8443", "http://site.example", "https://cdn.example"]
        let types: [String?] = [nil, "text/html", "text/css", "image/png", "application/octet-stream"]
        var direct = 0
        for _ in 0..<20_000 {
            let depth = Int.random(in: 0...(Int.random(in: 0...9, using: &generator) == 0 ? 40 : 5), using: &generator)
            var path = (0..<depth).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            if Bool.random(using: &generator) { path += "/" }
            var text = origins.randomElement(using: &generator)! + "/" + path
            if Int.random(in: 0...4, using: &generator) == 0 { text += "?q=" + pieces.randomElement(using: &generator)! }
            guard let url = WebURL(text) else { continue }
            let type = types.randomElement(using: &generator)!
            let general = Self.mapper.generalPath(for: url, contentType: type)
            if let fast = Self.mapper.directPath(for: url, contentType: type) {
                direct += 1
                #expect(fast == general, "\(text) \(type ?? "nil")")
            }
            #expect(Self.mapper.relativePath(for: url, contentType: type) == general)
        }
        // Both ways were taken often.
        #expect(direct > 500)
        #expect(direct < 18_000)
        #expect(Self.mapper.directPath(for: try #require(WebURL("https://site.example/docs/s01/p1.html")), contentType: "text/html")
            == "docs/s01/p1.html")
        #expect(Self.mapper.directPath(for: try #require(WebURL("https://site.example/Docs/p1.html")), contentType: "text/html") == nil)
    }

    @Test func relativeLinksResolveBackToTheTargetFile() throws {
        let root = try #require(WebURL("http://local.test/"))
        let pairs = [("a/b/c.html", "x y/é#?.html"), ("index.html", "_hosts/cdn@http-80/a%20b.css")]
        for (source, target) in pairs {
            let link = PathMapper.relativeLink(from: source, to: target, fragment: nil)
            let sourceURL = try #require(root.resolve(source.split(separator: "/").map {
                PathMapper.encodeForLink(String($0))
            }.joined(separator: "/")))
            let resolved = try #require(sourceURL.resolve(link))
            let decoded = String(decoding: WebURL.percentDecode(Array(resolved.path.utf8)[...]), as: UTF8.self)
            #expect(decoded == "/" + target)
        }
    }
}

@Suite struct PathMapperLinkEquivalenceTests {
    @Test("a link as written is kept only when it already leads to the file", arguments: [
        // (written, source, target, fragment, leads)
        ("../mod/core.html", "en/mod/mod_ssl.html", "en/mod/core.html", nil, true),
        ("core.html", "en/mod/mod_ssl.html", "en/mod/core.html", nil, true),
        ("./core.html", "en/mod/mod_ssl.html", "en/mod/core.html", nil, true),
        ("../../en/./mod/core.html", "en/mod/mod_ssl.html", "en/mod/core.html", nil, true),
        ("sqlite3.html", "c3ref/open.html", "c3ref/sqlite3.html", nil, true),
        ("../c3ref/sqlite3.html#x-1", "c3ref/open.html", "c3ref/sqlite3.html", "x-1", true),
        ("img/a.png", "index.html", "img/a.png", nil, true),
        ("a.html#x%20y", "index.html", "a.html", "x%20y", true),
        ("a.html#x y", "index.html", "a.html", "x%20y", false),
        ("a.html#x\"y", "index.html", "a.html", "x\"y", false),  // relativeLink would encode the quote
        ("../_hosts/cdn.example/x.js", "a/b.html", "_hosts/cdn.example/x.js", nil, true),
        // Another file, another fragment, or no fragment where one is expected (and back).
        ("core.html", "en/mod/mod_ssl.html", "en/core.html", nil, false),
        ("../c3ref/sqlite3.html#x-2", "c3ref/open.html", "c3ref/sqlite3.html", "x-1", false),
        ("../c3ref/sqlite3.html", "c3ref/open.html", "c3ref/sqlite3.html", "x-1", false),
        ("../c3ref/sqlite3.html#x-1", "c3ref/open.html", "c3ref/sqlite3.html", nil, false),
        // Forms a browser reads differently from the file name, or that need the origin.
        ("index.html", "dir/page.html", "dir/index.html@.html", nil, false),
        ("/en/mod/core.html", "en/mod/mod_ssl.html", "en/mod/core.html", nil, false),
        ("//host/en/mod/core.html", "en/mod/mod_ssl.html", "en/mod/core.html", nil, false),
        ("a%20b.pdf", "index.html", "a%20b.pdf", nil, false),
        ("a%20b.pdf", "index.html", "a b.pdf", nil, false),
        ("a.html?x=1", "index.html", "a.html", nil, false),
        ("a&amp;b.html", "index.html", "a&b.html", nil, false),
        ("http:a.html", "index.html", "a.html", nil, false),
        (" a.html", "index.html", "a.html", nil, false),
        ("A.html", "index.html", "a.html", nil, false),
        ("../../a.html", "x/b.html", "a.html", nil, false),  // above the site folder
        ("../", "x/b.html", "index.html", nil, false),  // a folder
        ("x/..", "b.html", "index.html", nil, false),
        ("x//a.html", "b.html", "x/a.html", nil, false),
        ("", "b.html", "b.html", nil, false),
        ("#top", "b.html", "b.html", "top", false),
    ] as [(String, String, String, String?, Bool)])
    func leadsTo(written: String, source: String, target: String, fragment: String?, leads: Bool) {
        #expect(PathMapper.leadsTo(Array(written.utf8)[...], from: source, to: target, fragment: fragment) == leads)
    }

    /// Whatever it accepts, a browser resolves to the file: random relative links over a small
    /// alphabet, checked against URL resolution from the source file's URL.
    @Test func whatItAcceptsResolvesToTheTargetAndWhatRelativeLinkWritesIsAccepted() throws {
        let root = try #require(WebURL("http://local.test/"))
        let pieces = ["a", "b", "..", ".", "c.html", "a.html", "b", "_x", "~y"]
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for _ in 0..<4000 {
            let depth = Int.random(in: 0...3, using: &generator)
            let source = (0..<depth).map { _ in ["a", "b", "_x"].randomElement(using: &generator)! } + ["s.html"]
            let count = Int.random(in: 1...5, using: &generator)
            let written = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            let sourcePath = source.joined(separator: "/")
            let sourceURL = try #require(root.resolve(sourcePath))
            guard let resolved = sourceURL.resolve(written) else { continue }
            let target = String(resolved.path.dropFirst())
            guard PathMapper.isSafeRelativePath(target), !written.hasSuffix(".."), !written.hasSuffix(".") else { continue }
            // Resolution clamps `..` at the root, a file:// copy inside a folder does not.
            let leads = PathMapper.leadsTo(Array(written.utf8)[...], from: sourcePath, to: target, fragment: nil)
            if leads { accepted += 1 }
            let ups = written.split(separator: "/").reduce(into: (depth: depth, above: false)) { state, part in
                if part == ".." { state.depth -= 1; if state.depth < 0 { state.above = true } }
                else if part != "." { state.depth += 1 }
            }
            #expect(leads == !ups.above, "\(written) from \(sourcePath) → \(target)")
            let link = PathMapper.relativeLink(from: sourcePath, to: target, fragment: "f")
            #expect(PathMapper.leadsTo(link, from: sourcePath, to: target, fragment: "f"), "\(link)")
            #expect(!PathMapper.leadsTo(Array(written.utf8)[...], from: sourcePath, to: target + "x", fragment: nil))
        }
        #expect(accepted > 1000)
    }
}

@Suite struct PathMapperUnicodeTests {
    @Test func upperCaseNonASCIIGetsACaseHash() throws {
        let mapper = PathMapper(primaryOrigin: try #require(WebURL("https://site.example/")))
        let upper = mapper.relativePath(for: try #require(WebURL("https://site.example/%C3%89t%C3%A9.png")), contentType: "image/png")
        let lower = mapper.relativePath(for: try #require(WebURL("https://site.example/%C3%A9t%C3%A9.png")), contentType: "image/png")
        #expect(lower == "\u{E9}t\u{E9}.png")
        #expect(upper.contains("^h"))
        #expect(upper.lowercased() != lower.lowercased())
    }
}

@Suite struct PathMapperRelativePathSafetyTests {
    @Test("isSafeRelativePath, component by component", arguments: [
        ("a/b/c.html", true), ("...", true), (".a/..b/c..", true), ("a", true), ("a/b.", true),
        ("", false), ("/a", false), ("a/", false), ("a//b", false), (".", false), ("..", false),
        ("a/./b", false), ("a/../b", false), ("a/..", false), ("./a", false), ("a\\b", false),
        ("a\u{1}b", false), ("a\u{7F}", false), ("a/\u{0}", false),
    ])
    func safeRelativePaths(_ path: String, _ safe: Bool) {
        #expect(PathMapper.isSafeRelativePath(path) == safe)
    }
}
