import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MirrorServer

/// Traversal attempts against a real tree with secrets outside the snapshot.
///
/// Layout: `<tmp>/secret.txt` (outside everything), `<tmp>/output/site/snapshots/s1/` the
/// snapshot, with a symlink `leak -> ../../../../secret.txt` and `dirleak -> /etc` inside it.
let traversalAttempts: [String] = [
    "/../secret.txt",
    "/../../../../secret.txt",
    "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/secret.txt",
    "/%2E%2E/%2E%2E/%2E%2E/%2E%2E/secret.txt",
    "/.%2e/.%2e/.%2e/.%2e/secret.txt",
    "/%252e%252e/%252e%252e/%252e%252e/%252e%252e/secret.txt",
    "/..%2f..%2f..%2f..%2fsecret.txt",
    "/..%2F..%2F..%2F..%2Fsecret.txt",
    "/..%5c..%5c..%5c..%5csecret.txt",
    "/..\\..\\..\\..\\secret.txt",
    "/%00/../secret.txt",
    "/index.html%00.txt",
    "//etc/passwd",
    "/etc/passwd",
    "/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt",
    "/%c0%af../secret.txt",
    "/%e0%80%ae%e0%80%ae/secret.txt",
    "/leak",
    "/leak/",
    "/dirleak/passwd",
    "/sub/../../secret.txt",
    "/sub/./../../../../../secret.txt",
    "/./../secret.txt",
    "/sub/%2e%2e/%2e%2e/secret.txt",
    "/_mirror/manifest.tsv",
    "/_mirror/../../../../secret.txt",
    "/%2fetc%2fpasswd",
    "/%5c..%5csecret.txt",
    "/..;/secret.txt",
    "/sub/..%00/secret.txt",
    "http://localhost/../../../../secret.txt",
]

@Suite("Path confinement")
struct TraversalTests {
    static let fixture: (MirrorFixture, RunningServer)? = {
        guard let fixture = try? MirrorFixture() else { return nil }
        guard let siteDirectory = try? fixture.publish(site: "site", files: ["index.html": "<p>home</p>", "sub/page.html": "page"]) else { return nil }
        let snapshot = siteDirectory + "/snapshots/s1"
        symlink("../../../../secret.txt", snapshot + "/leak")
        symlink("/etc", snapshot + "/dirleak")
        try? "SNAPSHOT-SIBLING-\(MirrorFixture.secret)".write(toFile: siteDirectory + "/snapshots/secret.txt", atomically: true, encoding: .utf8)
        guard let server = try? RunningServer(ServerConfiguration(layout: .single(fixture.site("site")))) else { return nil }
        return (fixture, server)
    }()

    @Test("no traversal attempt returns a secret", arguments: traversalAttempts)
    func attempt(_ path: String) throws {
        let (_, server) = try #require(Self.fixture)
        let reply = try #require(RawClient.get(path, port: server.port))
        #expect(reply.status != 200, "\(path) answered \(reply.status)")
        #expect(!reply.text.contains(MirrorFixture.secret))
        #expect(!reply.text.contains("root:x:0:0"))
        #expect([400, 404].contains(reply.status))
    }

    @Test("the secret file really exists, and the snapshot is served")
    func controls() throws {
        let (fixture, server) = try #require(Self.fixture)
        #expect(try String(contentsOfFile: fixture.temporary.path + "/secret.txt", encoding: .utf8) == MirrorFixture.secret)
        let reply = try #require(RawClient.get("/sub/page.html", port: server.port))
        #expect(reply.status == 200)
        #expect(reply.text == "page")
        #expect(RawClient.get("/sub/../index.html", port: server.port)?.text == "<p>home</p>")
    }

    @Test("pure path normalisation", arguments: [
        ("/", [String](), true), ("/a/b", ["a", "b"], false), ("/a/./b/", ["a", "b"], true),
        ("/a/../b", ["b"], false), ("/a//b", ["a", "b"], false), ("/%61%20b", ["a b"], false),
        ("/%252e%252e", ["%2e%2e"], false), ("/a/%2e%2e/b", ["b"], false),
    ])
    func normalisation(_ raw: String, _ segments: [String], _ slash: Bool) throws {
        #expect(try RequestPath.parse(raw).get() == RequestPath(segments: segments, trailingSlash: slash))
    }

    @Test("pure rejections", arguments: [
        ("/..", RequestPath.Rejection.escapesRoot), ("/a/../../b", .escapesRoot), ("/a%2Fb", .encodedSlash(segment: "a%2Fb")),
        ("/a%5cb", .backslash(segment: "a%5cb")), ("/a%00", .controlCharacter(segment: "a%00")),
        ("/%c0%ae", .invalidUTF8(segment: "%c0%ae")), ("/%zz", .invalidPercentEncoding(segment: "%zz")), ("a", .notAbsolute),
    ])
    func rejection(_ raw: String, _ expected: RequestPath.Rejection) {
        #expect(RequestPath.parse(raw) == .failure(expected))
    }
}
