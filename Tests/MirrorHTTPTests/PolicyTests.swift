import Foundation
import Testing
@testable import MirrorHTTP

@Suite struct HostScopeTests {
    @Test(arguments: [
        (["localhost:8443"], "localhost", 8443, true),
        (["localhost:8443"], "localhost", 8444, false),
        (["localhost:8443"], "LOCALHOST.", 8443, true),
        (["example.com"], "example.com", 1234, true),
        (["example.com"], "www.example.com", 443, false),
        (["*.example.com"], "www.example.com", 443, true),
        (["*.example.com"], "a.b.example.com", 443, true),
        (["*.example.com"], "example.com", 443, false),
        (["*.example.com"], "evilexample.com", 443, false),
        (["*.example.com:8443"], "x.example.com", 443, false),
        (["[::1]:8443"], "::1", 8443, true),
        ([], "localhost", 443, false),
    ])
    func matching(patterns: [String], host: String, port: Int, expected: Bool) {
        #expect(HostScope(patterns).contains(host: host, port: port) == expected)
    }
}

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 10, maxRetryAfter: 60)
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [500, 502, 503, 504, 429])
    func retriesServerErrorsWithBackoff(status: Int) {
        #expect(policy.delay(afterAttempt: 1, status: status, error: nil, retryAfter: nil, now: now) == 0.5)
        #expect(policy.delay(afterAttempt: 2, status: status, error: nil, retryAfter: nil, now: now) == 1.0)
        #expect(policy.delay(afterAttempt: 3, status: status, error: nil, retryAfter: nil, now: now) == nil)
    }

    @Test(arguments: [200, 304, 400, 403, 404, 410, 501])
    func neverRetriesOtherStatuses(status: Int) {
        #expect(policy.delay(afterAttempt: 1, status: status, error: nil, retryAfter: "1", now: now) == nil)
    }

    @Test func honoursRetryAfterSecondsAndDates() {
        #expect(policy.delay(afterAttempt: 1, status: 503, error: nil, retryAfter: "7", now: now) == 7)
        let date = HTTPDate.format(now.addingTimeInterval(30))
        #expect(policy.delay(afterAttempt: 1, status: 503, error: nil, retryAfter: date, now: now) == 30)
        // Longer than the cap: do not wait, return the response as it is.
        #expect(policy.delay(afterAttempt: 1, status: 503, error: nil, retryAfter: "3600", now: now) == nil)
        // Unparseable: fall back to backoff.
        #expect(policy.delay(afterAttempt: 1, status: 503, error: nil, retryAfter: "soon", now: now) == 0.5)
    }

    @Test func retriesTransientErrorsOnly() {
        #expect(policy.delay(afterAttempt: 1, status: nil, error: .timeout(url: "u", message: "m"), retryAfter: nil) != nil)
        #expect(policy.delay(afterAttempt: 1, status: nil, error: .network(url: "u", code: 7, message: "m"), retryAfter: nil) != nil)
        #expect(policy.delay(afterAttempt: 1, status: nil, error: .clientCertificateRejected(url: "u", identitySent: true, detail: "d"), retryAfter: nil) == nil)
        #expect(policy.delay(afterAttempt: 1, status: nil, error: .bodyTooLarge(url: "u", limit: 1), retryAfter: nil) == nil)
        #expect(RetryPolicy.none.delay(afterAttempt: 1, status: 503, error: nil, retryAfter: nil) == nil)
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
    ])
    func parsesTheThreeHTTPDateForms(text: String, epoch: Double) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == epoch)
    }
}

@Suite struct RedirectPolicyTests {
    @Test func resolvesRelativeLocations() throws {
        let policy = RedirectPolicy()
        #expect(try policy.next(location: "/b?x=1#frag", from: "https://h:8443/a/c", chain: ["https://h:8443/a/c"]) == "https://h:8443/b?x=1")
        #expect(try policy.next(location: "d", from: "https://h/a/c", chain: ["https://h/a/c"]) == "https://h/a/d")
        #expect(try policy.next(location: "https://other/", from: "https://h/", chain: ["https://h/"]) == "https://other/")
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://h/x", "javascript:alert(1)", "data:text/html,hi"])
    func refusesOtherSchemes(location: String) {
        #expect(throws: HTTPError.self) { try RedirectPolicy().next(location: location, from: "https://h/", chain: ["https://h/"]) }
    }

    @Test func refusesDowngradeUnlessAllowed() throws {
        #expect(throws: HTTPError.self) { try RedirectPolicy().next(location: "http://h/", from: "https://h/", chain: ["https://h/"]) }
        #expect(try RedirectPolicy(allowDowngrade: true).next(location: "http://h/", from: "https://h/", chain: ["https://h/"]) == "http://h/")
    }

    @Test func boundsHopsAndDetectsLoops() {
        #expect(throws: HTTPError.self) { try RedirectPolicy().next(location: "/a", from: "https://h/b", chain: ["https://h/a", "https://h/b"]) }
        let chain = (0...3).map { "https://h/\($0)" }
        #expect(throws: HTTPError.self) { try RedirectPolicy(maxRedirects: 3).next(location: "/next", from: chain.last!, chain: chain) }
        #expect((try? RedirectPolicy(maxRedirects: 4).next(location: "/next", from: chain.last!, chain: chain)) == "https://h/next")
    }
}

@Suite struct ClientCertificateRejectionTests {
    @Test(arguments: [
        (400, "<html><head><title>400 No required SSL certificate was sent</title></head>", true),
        (400, "<center>The SSL certificate error</center>", true),
        (400, "Bad request: missing parameter", false),
        (200, "No required SSL certificate was sent", false),
        (496, "", true),
    ])
    func recognisesNginxPages(status: Int, body: String, expected: Bool) {
        #expect((ClientCertificateRejection.detect(status: status, body: Array(body.utf8)) != nil) == expected)
    }

    @Test(arguments: [
        ("error:0A00045C:SSL routines::tlsv13 alert certificate required", true),
        ("error:0A000416:SSL routines::sslv3 alert certificate unknown", true),
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL", false),
    ])
    func recognisesAlerts(message: String, expected: Bool) {
        #expect((ClientCertificateRejection.detect(tlsMessage: message) != nil) == expected)
    }
}
