import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// `mtls-mirror demo` in process: a generated PKI, the embedded origin that requires a client
/// certificate (checked with curl, with and without one), the mirror, and the local server.
@Suite(.serialized) struct DemoCommandTests {
    struct Running {
        let output: TemporaryDirectory
        let port: UInt16
        let originPort: UInt16
        let task: Task<ExitCode, any Error>
        var base: String { "http://127.0.0.1:\(port)" }
        var origin: String { "https://localhost:\(originPort)/" }
        var pki: String { output.path + "/demo/.pki" }
        var snapshot: String { output.path + "/demo/current" }
    }

    /// Starts the demo on free ports and waits until the local server accepts connections.
    func start(_ extra: [String]) async throws -> Running {
        let output = try TemporaryDirectory(prefix: "demo-command")
        let port = FreePort.allocate()
        let originPort = FreePort.allocate()
        let parsed = try ArgumentParser.parse(
            ["-o", output.path, "--port", "\(port)", "--origin-port", "\(originPort)"] + extra, spec: DemoCommand.spec)
        let task = Task { try await DemoCommand(arguments: parsed, logger: Logger(minimumLevel: .warning)).run() }
        let deadline = Date().addingTimeInterval(120)
        while !FreePort.isAccepting(port) {
            guard Date() < deadline else { throw CancellationError() }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return Running(output: output, port: port, originPort: originPort, task: task)
    }

    func curl(_ arguments: [String]) async throws -> CommandRunner.Result {
        let runner = try #require(CommandRunner.forTool(named: "curl"))
        return await runner.runDetached(["--silent", "--show-error", "--max-time", "30"] + arguments, timeout: 40)
    }

    @Test("mirrors every page within depth, serves the index, and the origin refuses a client without a certificate")
    func mirrorsAndServes() async throws {
        let demo = try await start(["--max-requests", "3", "--exit-after", "120"])

        // The origin demands the client certificate: none → the handshake fails; the P12 → 200.
        let anonymous = try await curl(["--cacert", demo.pki + "/server-ca.pem", demo.origin])
        #expect([35, 56].contains(anonymous.exitCode), "\(anonymous)")
        #expect(!anonymous.stdout.contains("You are reading a mirror"))
        let password = try String(contentsOfFile: demo.pki + "/password.txt", encoding: .utf8).trimmingCharacters(in: .newlines)
        let identified = try await curl(["--cacert", demo.pki + "/server-ca.pem", "--cert-type", "P12",
                                         "--cert", demo.pki + "/client.p12:" + password, demo.origin])
        #expect(identified.exitCode == 0, "\(identified)")
        #expect(identified.stdout.contains("You are reading a mirror"))

        // The local server: three requests, then it stops by itself (--max-requests 3).
        let index = try await curl(["-w", "\n%{http_code}", demo.base + "/"])
        #expect(index.stdout.hasSuffix("\n200"), "\(index)")
        #expect(index.stdout.contains("You are reading a mirror"))
        #expect(!index.stdout.contains("https://localhost:\(demo.originPort)"), "links still point at the origin")
        let css = try await curl(["-w", "\n%{http_code}", demo.base + "/css/site.css"])
        #expect(css.stdout.hasSuffix("\n200"), "\(css)")
        let missing = try await curl(["-w", "\n%{http_code}", demo.base + "/" + DemoSite.beyondDepthPage])
        #expect(missing.stdout.hasSuffix("\n200") && missing.stdout.contains("Not in this mirror"),
                "without --live the page beyond the depth is a placeholder that says so: \(missing)")

        #expect(try await demo.task.value == .success)
        #expect(!FreePort.isAccepting(demo.port), "the local server is stopped")
        #expect(!FreePort.isAccepting(demo.originPort), "the origin is stopped")

        for page in DemoSite.mirroredPagePaths {
            #expect(FileManager.default.fileExists(atPath: demo.snapshot + "/" + page), "\(page) is missing from the mirror")
        }
        let placeholder = try String(contentsOfFile: demo.snapshot + "/" + DemoSite.beyondDepthPage, encoding: .utf8)
        #expect(placeholder.contains("Not in this mirror") && !placeholder.contains("Archive 2019"), "\(placeholder)")
        for asset in ["css/site.css", "css/theme.css", "fonts/demo-sans.woff2", "images/icons.svg", "images/pattern.svg",
                      "images/logo.png", "images/logo-2x.png", "images/hills-small.png", "images/hills-large.png"] {
            #expect(FileManager.default.fileExists(atPath: demo.snapshot + "/" + asset), "\(asset) is missing from the mirror")
        }
        let moved = try String(contentsOfFile: demo.snapshot + "/news/moved.html", encoding: .utf8)
        #expect(moved.contains("url=latest.html"), "\(moved)")
        let mode = try FileManager.default.attributesOfItem(atPath: demo.pki)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("--live fetches the page beyond the crawl depth from the origin over mTLS")
    func liveFetch() async throws {
        let demo = try await start(["--live", "--max-requests", "2", "--exit-after", "120"])
        let page = try await curl(["-w", "\n%{http_code}", "-L", demo.base + "/" + DemoSite.beyondDepthPage])
        #expect(page.stdout.hasSuffix("\n200"), "\(page)")
        #expect(page.stdout.contains("Archive 2019"))
        let again = try await curl(["-w", "\n%{http_code}", demo.base + "/" + DemoSite.beyondDepthPage])
        #expect(again.stdout.hasSuffix("\n200"), "\(again)")
        #expect(try await demo.task.value == .success)
        let stored = try String(contentsOfFile: demo.snapshot + "/" + DemoSite.beyondDepthPage, encoding: .utf8)
        #expect(stored.contains("Archive 2019") && !stored.contains("Not in this mirror"), "the live page replaced the placeholder")
    }

    @Test("SIGTERM stops both servers and the command exits 0")
    func stopsOnSignal() async throws {
        let demo = try await start([])
        let index = try await curl(["-w", "\n%{http_code}", demo.base + "/about.html"])
        #expect(index.stdout.hasSuffix("\n200"), "\(index)")
        kill(getpid(), SIGTERM)
        #expect(try await demo.task.value == .success)
        #expect(!FreePort.isAccepting(demo.port))
        #expect(!FreePort.isAccepting(demo.originPort))
    }

    @Test(arguments: [
        (["extra"], "positional"),
        (["--port", "70000"], "--port"),
        (["--origin-port", "99999"], "--origin-port"),
        (["--max-requests", "0"], "--max-requests"),
        (["--exit-after", "soon"], "--exit-after"),
    ])
    func rejectsBadOptions(arguments: [String], mentions: String) throws {
        let parsed = try ArgumentParser.parse(arguments, spec: DemoCommand.spec)
        #expect {
            _ = try DemoCommand(arguments: parsed, logger: .silent).options()
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.contains(mentions) || (mentions == "positional" && usage.message.contains("positional"))
        }
    }

    @Test func defaultsPutEverythingUnderOutputDemo() throws {
        let options = try DemoCommand(arguments: ArgumentParser.parse([], spec: DemoCommand.spec), logger: .silent).options()
        #expect(options.output == "output")
        #expect(options.siteDirectory == "output/demo")
        #expect(options.pkiDirectory == "output/demo/.pki")
        #expect(options.port == nil)
        // 8443 (the port ./config.json names) unless it is busy, then a free one.
        #expect(options.originPort == (DemoCommand.portIsFree(8443) ? 8443 : 0))
        #expect(options.maxRequests == nil && options.exitAfter == nil && !options.live)
    }

    @Test("the stop signal fires once, for the first cause, and runs its handlers")
    func stopSignal() async {
        let stop = StopSignal()
        defer { stop.disarm() }
        let handled = Tally()
        stop.onStop { handled.add() }
        stop.stop(after: 0.05)
        #expect(await stop.wait() == .deadline)
        stop.trigger()
        #expect(await stop.wait() == .deadline, "a later cause does not change the reason")
        try? await Task.sleep(nanoseconds: 50_000_000)
        #expect(handled.value == 1)

        let counted = Tally()
        let counter = RequestCounter(limit: 3) { counted.add() }
        for _ in 0..<5 { counter.count() }
        #expect(counter.total == 5)
        #expect(counted.value == 1, "the limit fires exactly once")
    }

    @Test("the bundled site has eight pages, decodable images, and one page beyond the crawl depth")
    func bundledSite() {
        #expect(DemoSite.pagePaths.count == 8)
        #expect(DemoSite.mirroredPagePaths.count == 7)
        #expect(Set(DemoSite.files.map(\.path)).count == DemoSite.files.count)
        for file in DemoSite.files where file.path.hasSuffix(".png") {
            #expect(file.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file.path)")
        }
        #expect(DemoSite.files.first { $0.path.hasSuffix(".woff2") }?.bytes.starts(with: Array("wOF2".utf8)) == true)
        let css = DemoSite.files.first { $0.path == "css/site.css" }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        #expect(css.contains("@font-face") && css.contains("@import") && css.contains("url(../images/pattern.svg)"))
    }
}

/// A thread-safe counter for handler calls.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
