import Glibc
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorScheduler
import MirrorServer
import MirrorTLS
import Testing
@testable import MirrorCLI

/// The library's hints name no flag; the command line's name the flag that fixes it, decided from
/// the typed error (and its evidence, for a start URL that failed).
@Suite struct CommandLineHintTests {
    @Test("library hints name no flag, the CLI's name it", arguments: [
        (HTTPError.bodyTooLarge(url: "https://a.example/", limit: 10), "--max-file-size"),
        (HTTPError.timeout(url: "https://a.example/", message: "x"), "--connect-timeout"),
        (HTTPError.tooManyRedirects(url: "https://a.example/", chain: []), "--max-redirs"),
        (HTTPError.decompressionBomb(url: "https://a.example/", ratio: 2000), "--max-decompression-ratio"),
        (HTTPError.clientCertificateRejected(url: "https://a.example/", identitySent: false, detail: "x"), "--cert"),
        (HTTPError.proxyRefused(url: "https://a.example/", proxy: "p", status: 407), "--proxy-user"),
        (HTTPError.proxyUnreachable(url: "https://a.example/", proxy: "p", code: 7, message: "x"), "--proxy"),
    ])
    func http(error: HTTPError, flag: String) {
        #expect(!error.hint.contains("--"), "\(error.hint)")
        #expect(!error.hint.isEmpty)
        #expect(CommandLineHint.hint(for: error).contains(flag))
    }

    @Test func identityAndTokenHintsNameThePasswordFlags() {
        for error in [IdentityError.wrongPassword(file: "a.p12"), .passwordRequired(file: "a.p12")] as [IdentityError] {
            #expect(!error.hint.contains("--pass-env"))
            #expect(CommandLineHint.hint(for: error).contains("--pass-env"))
        }
        let pin = TokenError.pinInURI(uri: "pkcs11:object=k")
        #expect(!pin.hint.contains("--pass"))
        #expect(CommandLineHint.hint(for: pin).contains("--pass-env"))
    }

    @Test func aStartFailureTakesTheHintOfItsEvidence() {
        let trust = TrustError.publicKeyPinMismatch(policy: "pins", host: "a.example", pinned: ["sha256//AAAA"], presented: ["sha256//BBBB"])
        let failure = CrawlFailure(HTTPError.serverTrust(url: "https://a.example/", trust))
        let error = CrawlError.startFailed(url: "https://a.example/", failure: failure)
        #expect(error.category == .serverTrust)
        #expect(failure.kind == .serverTrust && failure.kind.name == "server-trust")
        #expect(CommandLineHint.hint(for: error) == trust.hint)
        if case .http(.serverTrust(_, let evidence)) = failure.evidence {
            #expect(evidence == trust, "the pins expected and seen travel with the failure")
        } else {
            Issue.record("evidence lost: \(failure.evidence)")
        }

        let robots = CrawlError.startFailed(url: "https://a.example/", failure: .init(kind: .robots, cause: "disallowed by robots.txt"))
        #expect(robots.category == .usage)
        #expect(!robots.hint.contains("--"))
        #expect(CommandLineHint.hint(for: robots).contains("--ignore-robots"))

        let status = CrawlError.startFailed(url: "https://a.example/", failure: .init(kind: .httpStatus(503), cause: "HTTP 503"))
        #expect(status.category == .http)
        #expect(CommandLineHint.hint(for: status).contains("mtls-mirror fetch"))
    }

    @Test func serverAndScheduleHintsNameTheirFlagsOnlyOnTheCommandLine() {
        let remote = ServerError.remoteBindRefused(address: "0.0.0.0", reason: "no token")
        #expect(!remote.hint.contains("--"))
        #expect(CommandLineHint.hint(for: remote).contains("--allow-remote"))
        let cron = UnitFileError.cronCannotExpress(site: "s", every: 7 * 60)
        #expect(!cron.hint.contains("--"))
        #expect(CommandLineHint.hint(for: cron).contains("--print-systemd"))
        #expect(CommandLineHint.hint(for: UnitFileError.noInterval(site: "s")).contains("--site"))
    }

    @Test func aFullDiskIsKnownByItsErrno() {
        let full = HTTPError.io(path: "/x", errno: ENOSPC)
        #expect(full.hint.contains("free disk space"))
        #expect(full.summary.contains("No space left"))
        #expect(!HTTPError.io(path: "/x", errno: EACCES).hint.contains("free disk space"))
    }
}
