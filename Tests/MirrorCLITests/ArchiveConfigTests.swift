import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// `sites[].archive` in config.json and the `--warc` options: what they accept, what they refuse
/// (naming the field), and a `refresh` of a config site that archives.
@Suite struct ArchiveConfigTests {
    @Test func anArchiveObjectTurnsArchivingOnWithItsSettings() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(ConfigFixture.site(#""archive": {"maxFileSize": "64MiB", "redactHeaders": ["X-Api-Key"], "keepHeaders": ["Cookie"]}"#))
        let archive = try #require(config.sites[0].archive)
        #expect(archive.enabled && archive.maxFileSize == 64 << 20)
        #expect(archive.redactedHeaders == ["authorization", "set-cookie", "proxy-authorization", "x-api-key"])
        #expect(try fixture.load(ConfigFixture.site("")).sites[0].archive == nil, "no archive unless asked")
        #expect(try fixture.load(ConfigFixture.site(#""archive": {"enabled": false}"#)).sites[0].archive?.enabled == false)
        // The dump is a config that loads to the same value.
        let dumped = try fixture.load(config.dumpRedacted(), name: "dump.json")
        #expect(dumped.sites[0].archive == archive)
    }

    @Test(arguments: [
        (#""archive": {"maxFileSize": "1KiB"}"#, "sites[0].archive.maxFileSize"),
        (#""archive": {"redactHeaders": ["not a name"]}"#, "sites[0].archive.redactHeaders[0]"),
        (#""archive": {"keepHeaders": "Cookie"}"#, "sites[0].archive.keepHeaders"),
        (#""archive": {"enabled": "yes"}"#, "sites[0].archive.enabled"),
        (#""archive": true"#, "sites[0].archive"),
    ])
    func badArchiveSettingsNameTheirField(fragment: String, field: String) throws {
        let error = try #require(try ConfigFixture().error(ConfigFixture.site(fragment)))
        #expect(error.summary.contains(": \(field): expected "), "\(error.summary)")
    }

    @Test func anUnknownArchiveKeySuggestsTheRightOne() throws {
        let error = try #require(try ConfigFixture().error(ConfigFixture.site(#""archive": {"maxfilesize": "1GiB"}"#)))
        #expect(error.summary.hasSuffix("did you mean \"maxFileSize\"?"), "\(error.summary)")
    }

    @Test(arguments: [
        (["--warc-max-size", "10MiB"], "need --warc"),
        (["--warc", "--warc-max-size", "1000"], "at least 1MiB"),
        (["--warc", "--warc-max-size", "lots"], "needs a size"),
        (["--warc", "--warc-keep-header", "not a name"], "is not a header name"),
    ])
    func badWarcOptionsAreUsageErrors(extra: [String], message: String) {
        let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))
        let result = runner.run(["mirror", "https://localhost:1/", "-o", NSTemporaryDirectory() + "/unused-\(UUID().uuidString)"] + extra,
                                environment: ["NO_COLOR": "1"], timeout: 30)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains(message) && result.stderr.contains("try:"), "\(result.stderr)")
    }

    @Test func aConfigSiteArchivesAndItsRefreshWritesRevisits() throws {
        let nginx = try NginxFixture(.mtls)
        try ArchiveMirrorTests.writeSite(nginx, pages: 3)
        let folder = try TemporaryDirectory(prefix: "archive-config")
        let config = """
            {"output": "out", "sites": [{"name": "intranet", "start": ["\(nginx.url(.mtls))"],
              "identity": {"cert": "\(nginx.pki.path("client.p12"))", "password": {"env": "ARCHIVE_CONFIG_PASS"}},
              "trust": {"default": {"type": "default", "cacert": ["\(nginx.pki.path("server-root.pem"))"]}},
              "archive": {"maxFileSize": "1MiB"}}]}
            """
        try config.write(to: folder.appending("config.json"), atomically: true, encoding: .utf8)
        let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"), workingDirectory: folder.url)
        let environment = ["ARCHIVE_CONFIG_PASS": nginx.pki.password, "NO_COLOR": "1"]
        let first = runner.run(["mirror"], environment: environment, timeout: 120)
        #expect(first.exitCode == 0, "\(first)")
        let refresh = runner.run(["refresh"], environment: environment, timeout: 120)
        #expect(refresh.exitCode == 0, "\(refresh)")
        let archive = folder.path + "/out/intranet/archive"
        let warcs = try FileManager.default.contentsOfDirectory(atPath: archive).filter { $0.hasSuffix(".warc.gz") }.sorted()
        #expect(warcs.count == 2, "\(warcs)")
        let audit = try WARCAudit.audit([archive + "/" + warcs[1]])
        #expect(Set(audit.records.map(\.type)) == ["warcinfo", "request", "revisit"])
        let info = try #require(audit.records.first)
        #expect(info.type == "warcinfo")
        #expect(try WARCAudit.audit([archive + "/" + warcs[0]]).records.filter { $0.type == "response" }.count == 12,
                "3 pages, the index, account, 2 stylesheets, a script, 3 images and robots.txt")
    }
}
