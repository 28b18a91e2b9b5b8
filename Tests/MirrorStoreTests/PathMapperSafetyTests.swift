import Foundation
import MirrorCore
import Testing
@testable import MirrorStore
import MirrorTestSupport

@Suite struct PathMapperSafetyTests {
    static let site = WebURL("https://site.example/")!
    static let mapper = PathMapper(primaryOrigin: site)

    /// Every traversal trick: each must map to a safe path that stays inside the folder.
    static let traversalAttempts: [String] = [
        "/..", "/../", "/../../etc/passwd", "/a/../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/x", "/.%2e/.%2E/x", "/%2e%2e",
        "/%252e%252e/%252e%252e/etc/passwd", "/%252e%252e", "/..%5c..%5cetc%5cpasswd",
        "/..\\..\\etc\\passwd", "\\..\\..\\x", "/a%2F..%2F..%2Fx", "/%2F%2Fetc%2Fpasswd",
        "/%00", "/a/%00/b", "/a%00.html", "/%2e", "/.", "/./.", "/...", "/..../x",
        "//etc/passwd", "///etc/passwd", "/%2e%2e%2f%2e%2e%2fx", "/x/%2e%2e%5c%2e%2e%5cy",
        "/C:/Windows/win.ini", "/C%3A%5CWindows", "/%5C%5Cserver%5Cshare", "/ ../x", "/.. /x",
        "/x?../../../etc/passwd", "/x?%2e%2e%2f%2e%2e", "/x#../../y", "/~/x", "/%7E/x",
        "/" + Array(repeating: "..", count: 200).joined(separator: "/"),
        "/" + Array(repeating: "a", count: 200).joined(separator: "/"),
        "/" + Array(repeating: "%2e%2e", count: 50).joined(separator: "/") + "/x",
        "/" + String(repeating: "a", count: 3000),
        "https://../x", "https://%2e%2e/x", "https://con:8443/x",
    ]

    @Test(arguments: traversalAttempts)
    func traversalStaysInside(attempt: String) throws {
        guard let url = Self.site.resolve(attempt) else {
            // A URL that does not parse never reaches the mapper; that is safe too.
            #expect(throws: WebURL.ParseError.self) { try Self.site.resolving(attempt) }
            return
        }
        let path = Self.mapper.relativePath(for: url, contentType: "text/html")
        try Self.expectInside(path)
    }

    /// Lexical check, then create the file for real and check `realpath` is below the root.
    static func expectInside(_ path: String) throws {
        #expect(PathMapper.isSafeRelativePath(path), "unsafe: \(path)")
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        #expect(!components.contains(".."))
        #expect(!components.contains("."))
        #expect(!components.contains(""))
        #expect(!path.hasPrefix("/"))
        #expect(!path.contains("\\") && !path.utf8.contains(0))
        let unsafe = Set(":*?\"<>|".unicodeScalars)
        #expect(!path.unicodeScalars.contains { unsafe.contains($0) || $0.value < 0x20 })
        var depth = 0
        for component in components {
            depth += component == ".." ? -1 : 1
            #expect(depth > 0)
            #expect(!component.hasSuffix(".") && !component.hasSuffix(" "))
            #expect(component.utf8.count <= 200)
        }
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try store.write(Array("x".utf8), to: path)
        let resolved = try #require(resolvedPath(store.root + "/" + path))
        #expect(resolved.hasPrefix(store.root + "/"))
    }

    /// 10,000 distinct tricky URLs: distinct paths, also after case folding, and no file
    /// name is ever also used as a directory.
    @Test func noCollisionsAcrossTenThousandTrickyURLs() throws {
        let pieces = [
            "a", "A", "page", "Page", "page.html", "page@", "page.html@", "index", "index.html", "INDEX.HTML",
            "con", "CON.txt", "con.txt", "a.css", "a.CSS", "a%2Ecss", "x%20y", "x y", "%2e%2e", "..", ".",
            "a:b", "a%3Ab", "a@b", "a%40b", "_hosts", "_mirror", "_Hosts", "tést", "t%C3%A9st", "a.", "a..",
            "a*b", "a%2Ab", "a^b", "a%5Eb", "%00", "a%2Fb", "a%5Cb", "q.php", "report.pdf", "data.json",
            "UPPER", "MiXeD.Png", "^", "%5E", "x^2E", "lpt1", "Lpt1.js", "", String(repeating: "L", count: 230),
            String(repeating: "l", count: 230), String(repeating: "l", count: 229) + "m",
        ]
        let queries = [nil, "q=1", "Q=1", "q=1&r=2", "a/b", "x=%20", "", "@", "q=A", "q=a", "%2F", "/",
                       String(repeating: "z", count: 300)]
        let origins = ["https://site.example", "https://cdn.example", "https://cdn.example:8443",
                       "http://site.example", "https://CDN.example.", "https://cdn.example_8443"]
        let types: [String?] = ["text/html", "text/css", nil, "image/png", "application/x-unknown"]
        var generator = SplitMix64(seed: 42)
        var seen: [String: String] = [:]
        var attempts = 0
        while seen.count < 10_000, attempts < 200_000 {
            attempts += 1
            let depth = Int.random(in: 1...4, using: &generator)
            var path = ""
            for _ in 0..<depth { path += "/" + pieces.randomElement(using: &generator)! }
            if Bool.random(using: &generator) { path += "/" }
            var text = origins.randomElement(using: &generator)! + path
            if let query = queries.randomElement(using: &generator)! { text += "?" + query }
            guard let url = WebURL(text) else { continue }
            let key = url.withoutFragment.string
            if seen[key] != nil { continue }
            let type = types.randomElement(using: &generator)!
            seen[key] = Self.mapper.relativePath(for: url, contentType: type)
        }
        #expect(seen.count == 10_000)
        var byPath: [String: String] = [:]
        var byFoldedPath: [String: String] = [:]
        for (url, path) in seen {
            #expect(PathMapper.isSafeRelativePath(path))
            if let other = byPath.updateValue(url, forKey: path) {
                Issue.record("collision: \(url) and \(other) → \(path)")
            }
            if let other = byFoldedPath.updateValue(url, forKey: path.lowercased()) {
                Issue.record("case-folded collision: \(url) and \(other) → \(path)")
            }
        }
        // A file path must never be a directory of another path (compared case-folded).
        var directories = Set<String>()
        for path in byFoldedPath.keys {
            var prefix = ""
            for component in path.split(separator: "/").dropLast() {
                prefix += (prefix.isEmpty ? "" : "/") + component
                directories.insert(prefix)
            }
        }
        for path in byFoldedPath.keys where directories.contains(path) {
            Issue.record("file is also a directory: \(path)")
        }
    }
}
