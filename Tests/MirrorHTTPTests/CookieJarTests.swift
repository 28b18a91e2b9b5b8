import Foundation
import Testing
@testable import MirrorHTTP

@Suite struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func hostOnlyDomainPathAndSecure() throws {
        let jar = CookieJar(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let origin = try #require(URL(string: "https://www.example.com/app/login"))
        jar.receive(setCookie: ["session=abc; Path=/; Secure", "pref=1", "wide=w; Domain=example.com; Path=/"], from: origin)
        let page = try #require(URL(string: "https://www.example.com/app/page"))
        let sent = try #require(jar.header(for: page))
        #expect(Set(sent.components(separatedBy: "; ")) == ["pref=1", "session=abc", "wide=w"])
        #expect(sent.hasPrefix("pref=1"))  // longest path first (RFC 6265 §5.4)
        // host-only: not sent to another subdomain; domain cookie is.
        #expect(jar.header(for: try #require(URL(string: "https://api.example.com/"))) == "wide=w")
        // secure: not over http.
        #expect(jar.header(for: try #require(URL(string: "http://www.example.com/app/x")))?.contains("session") == false)
        // default path /app: not sent to /other.
        #expect(jar.header(for: try #require(URL(string: "https://www.example.com/other")))?.contains("pref") == false)
    }

    @Test func refusesForeignDomainsAndHonoursExpiry() throws {
        let jar = CookieJar(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let origin = try #require(URL(string: "https://www.example.com/"))
        jar.receive(setCookie: ["evil=1; Domain=attacker.com", "gone=1; Max-Age=0", "old=1; Expires=Sun, 06 Nov 1994 08:49:37 GMT", "ok=1; Max-Age=60"], from: origin)
        #expect(jar.all.map(\.name) == ["ok"])
        jar.receive(setCookie: ["ok=2; Max-Age=-1"], from: origin)
        #expect(jar.all.isEmpty)
    }

    @Test func loadsNetscapeFiles() throws {
        let jar = CookieJar(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let file = """
            # Netscape HTTP Cookie File
            .example.com\tTRUE\t/\tTRUE\t0\tsso\ttoken-1
            #HttpOnly_intranet.example\tFALSE\t/docs\tFALSE\t2000000000\tlang\ten
            intranet.example\tFALSE\t/\tFALSE\t1000\texpired\tx
            malformed line
            """
        #expect(jar.load(netscapeFile: file) == 3)
        #expect(jar.header(for: try #require(URL(string: "https://a.example.com/"))) == "sso=token-1")
        #expect(jar.header(for: try #require(URL(string: "https://intranet.example/docs/x"))) == "lang=en")
        #expect(jar.header(for: try #require(URL(string: "https://sub.intranet.example/docs/x"))) == nil)
    }
}
