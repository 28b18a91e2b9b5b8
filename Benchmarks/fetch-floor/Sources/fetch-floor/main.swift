import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTLS

// fetch-floor PKI_DIR URL_LIST JOBS: fetches every URL of URL_LIST (one per line) with
// mtls-mirror's HTTP engine (HTTPClient: the same multi handle, TLS profile and connection
// policy as a crawl), JOBS at a time, bodies discarded. Nothing is parsed or written. The first
// URL (the bench script lists robots.txt first) is fetched alone, as a crawl fetches robots.txt
// before anything else: the rest then share the connection it opened and learnt HTTP/2 on,
// instead of each opening one while no connection is up yet (31 handshakes, each with its
// certificate checks, against a crawl's 3 or 4). The client
// identity is PKI_DIR/client.p12 (password in PKI_DIR/password.txt); the server must chain to
// PKI_DIR/server-root.pem. Exits 1 when any URL did not answer 200.
let arguments = CommandLine.arguments
guard arguments.count == 4, let jobs = Int(arguments[3]), jobs > 0 else {
    FileHandle.standardError.write(Data("usage: fetch-floor PKI_DIR URL_LIST JOBS\n".utf8))
    exit(2)
}
let pki = arguments[1]
let urls = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
let password = try String(contentsOfFile: pki + "/password.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
let identity = try ClientIdentity.load(certificate: pki + "/client.p12", password: Secret(password))
let profile = TLSProfile(identity: identity, evaluator: DefaultTrustEvaluator(anchors: .files([pki + "/server-root.pem"])))
// As `mtls-mirror mirror` sets it up with its defaults: 32 connections per host at most.
let client = HTTPClient(configuration: .init(maxConnectionsPerHost: 32, maxTotalConnections: max(jobs, 32)))
let started = Date()
let failed = await withTaskGroup(of: Bool.self) { group in
    var next = 0
    var failed = 0
    func addNext() {
        let url = urls[next]
        next += 1
        group.addTask {
            var request = HTTPRequest(url: url)
            request.destination = .discard
            return (try? await client.perform(request, profile: profile))?.status == 200
        }
    }
    if !urls.isEmpty {
        addNext()
        if let ok = await group.next(), !ok { failed += 1 }
    }
    while next < min(jobs, urls.count) { addNext() }
    for await ok in group {
        if !ok { failed += 1 }
        if next < urls.count { addNext() }
    }
    return failed
}
print(String(format: "%d URLs, %d not 200, %.3f s", urls.count, failed, Date().timeIntervalSince(started)))
client.shutdown()
exit(failed == 0 ? 0 : 1)
