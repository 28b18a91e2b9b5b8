import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTLS
import MirrorTestSupport
import Testing
@testable import MirrorCLI

@Suite struct ConfigLoadingTests {
    static let fullConfig = """
        {
          "$comment": "every field set",
          "output": "mirrors",
          "jobs": 16,
          "sites": [
            {
              "$comment": "the intranet",
              "name": "intranet",
              "start": ["https://Intranet.Example/", "https://intranet.example:8443/docs/../wiki/"],
              "identity": {
                "cert": "certs/me.p12",
                "type": "P12",
                "key": "/etc/keys/me.key",
                "password": {"env": "P12_PASSWORD"},
                "hosts": ["Files.Example", "*.intranet.example:8443"]
              },
              "trust": {
                "default": {"type": "default", "cacert": ["ca.pem", "certs/extra-ca.pem"], "verifyHost": false},
                "hosts": {
                  "$comment": "pinned CDN",
                  "cdn.example.com": {"type": "publicKeys", "pins": ["\(ConfigFixture.pin)", "\(ConfigFixture.otherPin)"], "requireChain": true},
                  "*.Example.com": {"type": "composite", "policies": [
                    {"type": "revocation", "crl": ["crl.pem"], "cacert": ["ca.pem"]},
                    {"type": "pinnedCertificates", "certificates": ["server.pem"]}
                  ]},
                  "lab.example": {"type": "disabled"}
                }
              },
              "scope": {
                "include": ["/docs/", "regex:^/api/v[0-9]+/"], "exclude": ["/docs/private/"], "noParent": true, "depth": 3,
                "requisiteHosts": ["cdn.example.com", "*.static.example"], "robots": false
              },
              "limits": {
                "maxPages": 1000, "maxBytes": "2GiB", "maxFileSize": "500KB", "maxRedirects": 5, "maxURLLength": 4096,
                "maxDecompressionRatio": 50.5, "maxHTMLBytes": 1048576, "perHostConnections": 2, "httpVersion": "1.1",
                "connectTimeout": "5s", "idleTimeout": 45, "totalTimeout": "1h30m", "retries": 0
              },
              "http": {
                "headers": {"Accept-Language": "en", "Authorization": {"file": "secrets/token"}},
                "userAgent": "corp-mirror/1", "cookies": "cookies.txt", "allowDowngrade": true
              },
              "refresh": {"every": "6h", "jitter": "10m", "keep": 3, "expiryWarningDays": 14},
              "serve": {"live": true, "maxAge": "1d"}
            },
            {"name": "wiki", "start": ["http://wiki.example/"], "identity": {"cert": "wiki.pem", "password": "prompt"}}
          ],
          "serve": {"bind": "0.0.0.0", "port": 9000, "allowRemote": true, "tokenFile": "token", "accessLog": "/var/log/mirror.log"}
        }
        """

    @Test func fullConfigLoadsEveryValue() throws {
        let fixture = try ConfigFixture()
        let dir = fixture.path
        let config = try fixture.load(Self.fullConfig)

        #expect(config.output == dir + "/mirrors")
        #expect(config.jobs == 16)
        #expect(config.sites.count == 2)
        let site = config.sites[0]
        #expect(site.name == "intranet")
        #expect(site.start.map(\.string) == ["https://intranet.example/", "https://intranet.example:8443/wiki/"])
        #expect(site.identity == IdentityConfig(
            certificate: dir + "/certs/me.p12", type: .p12, key: "/etc/keys/me.key",
            password: .environment("P12_PASSWORD"), hosts: ["files.example", "*.intranet.example:8443"]))
        #expect(site.identityHosts == ["intranet.example:443", "intranet.example:8443", "files.example", "*.intranet.example:8443"])

        #expect(site.trust.defaultPolicy == .default(anchors: [dir + "/ca.pem", dir + "/certs/extra-ca.pem"], verifyHost: false))
        #expect(site.trust.hosts == [
            .init(pattern: "cdn.example.com", policy: .publicKeys(
                pins: [ConfigFixture.pin, ConfigFixture.otherPin], requireChain: true, anchors: [], verifyHost: true)),
            .init(pattern: "*.example.com", policy: .composite([
                .revocation(crls: [dir + "/crl.pem"], anchors: [dir + "/ca.pem"], verifyHost: true),
                .pinnedCertificates(certificates: [dir + "/server.pem"], requireChain: false, anchors: [], verifyHost: true),
            ])),
            .init(pattern: "lab.example", policy: .disabled),
        ])
        #expect(site.trust.policy(forHost: "CDN.example.com.")?.typeName == "publicKeys")
        #expect(site.trust.policy(forHost: "img.example.com")?.typeName == "composite")
        #expect(site.trust.policy(forHost: "example.com")?.typeName == "default")

        var scope = ScopeConfig()
        scope.include = [.prefix("/docs/"), .regex("^/api/v[0-9]+/")]
        scope.exclude = [.prefix("/docs/private/")]
        scope.noParent = true
        scope.depth = 3
        scope.requisiteHosts = ["cdn.example.com", "*.static.example"]
        scope.robots = false
        #expect(site.scope == scope)

        var limits = LimitsConfig()
        limits.maxPages = 1000
        limits.maxBytes = 2 << 30
        limits.maxFileSize = 500_000
        limits.maxRedirects = 5
        limits.maxURLLength = 4096
        limits.maxDecompressionRatio = 50.5
        limits.maxHTMLBytes = 1 << 20
        limits.perHostConnections = 2
        limits.httpVersion = .http1
        limits.connectTimeout = 5
        limits.idleTimeout = 45
        limits.totalTimeout = 5400
        limits.retries = 0
        #expect(site.limits == limits)

        var http = HTTPConfig()
        http.headers = [.init(name: "Accept-Language", value: .literal("en")),
                        .init(name: "Authorization", value: .reference(.file(dir + "/secrets/token")))]
        http.userAgent = "corp-mirror/1"
        http.cookies = dir + "/cookies.txt"
        http.allowDowngrade = true
        #expect(site.http == http)

        var refresh = RefreshConfig()
        refresh.every = 21_600
        refresh.jitter = 600
        refresh.keep = 3
        refresh.expiryWarningDays = 14
        #expect(site.refresh == refresh)
        #expect(site.serve.live && site.serve.maxAge == 86_400)

        #expect(config.sites[1].identity?.password == .prompt)
        #expect(config.sites[1].identity?.type == nil)
        #expect(config.sites[1].start.first?.effectivePort == 80)

        #expect(config.serve.bind == "0.0.0.0" && config.serve.port == 9000 && config.serve.allowRemote)
        #expect(config.serve.tokenFile == dir + "/token")
        #expect(config.serve.accessLog == "/var/log/mirror.log")

        #expect(config.warnings.count == 1)
        #expect(config.warnings.first?.hasPrefix(
            "sites[0].trust.hosts[\"lab.example\"]: server verification is DISABLED for site \"intranet\"") == true)
    }

    @Test func minimalConfigGetsEveryDefault() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(#"{"sites": [{"name": "a", "start": ["https://a.example/"]}]}"#)
        let start = try #require(WebURL("https://a.example/"))
        #expect(config == MirrorConfig(output: fixture.path + "/output", jobs: 256, sites: [SiteConfig(name: "a", start: [start])]))

        let site = config.sites[0]
        #expect(site.identity == nil && site.identityHosts.isEmpty)
        #expect(site.trust.defaultPolicy == .default(anchors: [], verifyHost: true) && site.trust.hosts.isEmpty)
        #expect(!site.trust.failsClosed)
        #expect(site.scope.include.isEmpty && site.scope.robots && !site.scope.noParent && site.scope.depth == 20)
        #expect(site.traps.rules == .defaults && site.limits.runTime == nil && site.limits.publishPartial)
        #expect(site.limits.headerTimeout == 30 && site.limits.minRate == 512)
        #expect(site.limits.maxFileSize == 268_435_456 && site.limits.maxHTMLBytes == 33_554_432)
        #expect(site.limits.maxPages == nil && site.limits.maxBytes == nil)
        #expect(site.limits.maxRedirects == 10 && site.limits.maxURLLength == 8192 && site.limits.maxDecompressionRatio == 200)
        #expect(site.limits.perHostConnections == 32 && site.limits.retries == 2)
        #expect(site.limits.connectTimeout == 15 && site.limits.idleTimeout == 30 && site.limits.totalTimeout == 600)
        #expect(site.http.headers.isEmpty && site.http.userAgent == nil && site.http.cookies == nil && !site.http.allowDowngrade)
        #expect(site.refresh.every == nil && site.refresh.jitter == 0 && site.refresh.keep == 5 && site.refresh.expiryWarningDays == 30)
        #expect(!site.serve.live && site.serve.maxAge == nil)
        #expect(config.serve == ServeConfig())
        #expect(config.serve.bind == "127.0.0.1" && config.serve.port == 8080 && !config.serve.allowRemote)
        #expect(config.warnings.isEmpty)
    }

    @Test func nullIsAcceptedWhereTheSchemaAllowsIt() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(ConfigFixture.site(
            #""limits": {"maxPages": null, "maxBytes": null}, "scope": {"depth": null}, "serve": {"maxAge": null}"#))
        #expect(config.sites[0].limits.maxPages == nil && config.sites[0].scope.depth == nil)
        let error = fixture.error(ConfigFixture.site(#""limits": {"retries": null}"#))
        #expect(error == .invalid(file: fixture.path + "/config.json", fieldPath: "sites[0].limits.retries",
                                  expected: "a whole number from 0 to 20", found: "null"))
    }

    @Test func dollarKeysAreIgnoredEverywhere() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load("""
            {"$comment": "top", "$schema": "x", "sites": [{"$note": 1, "name": "a", "start": ["https://a.example/"],
              "identity": {"$c": [], "cert": "c.pem", "password": {"$why": "ci", "env": "PW"}},
              "trust": {"$c": 0, "hosts": {"$c": "ignored", "a.example": {"$c": null, "type": "default"}}},
              "http": {"headers": {"$c": "not a header", "X-A": "1"}}, "limits": {"$todo": "raise", "retries": 3}}]}
            """)
        #expect(config.sites[0].identity?.password == .environment("PW"))
        #expect(config.sites[0].trust.hosts.map(\.pattern) == ["a.example"])
        #expect(config.sites[0].http.headers == [.init(name: "X-A", value: .literal("1"))])
        #expect(config.sites[0].limits.retries == 3)
    }

    @Test(arguments: [
        ("certs/me.p12", "/certs/me.p12"),
        ("./me.p12", "/me.p12"),
        ("../elsewhere/me.p12", "/../elsewhere/me.p12"),
    ])
    func relativePathsResolveAgainstTheConfigFolder(written: String, suffix: String) throws {
        let fixture = try ConfigFixture()
        try FileManager.default.createDirectory(at: fixture.directory.appending("conf"), withIntermediateDirectories: true)
        let config = try fixture.load(ConfigFixture.site(#""identity": {"cert": "\#(written)"}"#), name: "conf/site.json")
        #expect(config.sites[0].identity?.certificate == fixture.path + "/conf" + suffix)
        #expect(config.output == fixture.path + "/conf/output")
    }

    @Test func absoluteAndHomePathsAreKept() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(ConfigFixture.site(#""identity": {"cert": "/etc/me.p12", "key": "~/me.key"}"#))
        #expect(config.sites[0].identity?.certificate == "/etc/me.p12")
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        #expect(config.sites[0].identity?.key == home + "/me.key")
    }

    @Test func trustFilesAreCheckedRelativeToTheConfigFolder() throws {
        let fixture = try ConfigFixture()
        // ca.pem exists beside config.json, not in the working directory.
        #expect(FileManager.default.currentDirectoryPath != fixture.path)
        let config = try fixture.load(ConfigFixture.site(#""trust": {"default": {"type": "default", "cacert": ["ca.pem"]}}"#))
        #expect(config.sites[0].trust.defaultPolicy == .default(anchors: [fixture.path + "/ca.pem"], verifyHost: true))
    }

    @Test func identityAndPasswordFilesAreNotOpenedAtLoadTime() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(ConfigFixture.site(#""identity": {"cert": "missing.p12", "password": {"file": "missing.pass"}}"#))
        #expect(config.sites[0].identity?.password == .file(fixture.path + "/missing.pass"))
        #expect(config.sites[0].identity?.password?.source == .file(fixture.path + "/missing.pass"))
    }

    @Test func trustHostsWithoutDefaultFailClosedButCoverWildcardStarts() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load("""
            {"sites": [{"name": "a", "start": ["https://www.corp.example/"],
              "trust": {"hosts": {"*.corp.example": {"type": "publicKeys", "pins": ["\(ConfigFixture.pin)"]}}}}]}
            """)
        #expect(config.sites[0].trust.failsClosed)
        #expect(config.sites[0].trust.policy(forHost: "www.corp.example") != nil)
        #expect(config.sites[0].trust.policy(forHost: "corp.example") == nil)
        #expect(config.sites[0].trust.policy(forHost: "other.example") == nil)
    }

    @Test func warningsNameDisabledPoliciesAndOpenServers() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load("""
            {"sites": [{"name": "a", "start": ["https://a.example/"], "identity": {"cert": "me.p12"},
              "trust": {"default": {"type": "composite", "policies": [{"type": "default"}, {"type": "disabled"}]}}}],
             "serve": {"bind": "0.0.0.0", "allowRemote": true}}
            """)
        #expect(config.warnings.count == 2)
        #expect(config.warnings[0].hasPrefix("sites[0].trust.default.policies[1]: server verification is DISABLED"))
        #expect(config.warnings[0].contains("receive your client certificate"))
        #expect(config.warnings[1].hasPrefix("serve.allowRemote:"))
    }

    @Test func dumpIsRedactedCompleteAndLoadsBackEqual() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(Self.fullConfig)
        let dump = config.dumpRedacted()
        #expect(dump.contains(#""password": {"#) && dump.contains(#""env": "P12_PASSWORD""#))
        #expect(dump.contains(#""password": "prompt""#))
        #expect(dump.contains(#""maxBytes": "2GiB""#) && dump.contains(#""totalTimeout": "1h30m""#))
        #expect(dump.contains(#""robots": false"#) && dump.contains(#""maxFileSize": 500000"#))
        let again = try fixture.load(dump, name: "dumped.json")
        #expect(again == config)

        let minimal = try fixture.load(#"{"sites": [{"name": "a", "start": ["https://a.example/"]}]}"#)
        let minimalDump = minimal.dumpRedacted()
        #expect(minimalDump.contains(#""maxFileSize": "256MiB""#) && minimalDump.contains(#""connectTimeout": "15s""#))
        #expect(minimalDump.contains(#""type": "default""#) && minimalDump.contains(#""bind": "127.0.0.1""#))
        #expect(try fixture.load(minimalDump, name: "dumped.json") == minimal)
    }

    @Test func missingFileCannotBeRead() throws {
        let fixture = try ConfigFixture()
        let path = fixture.path + "/absent.json"
        #expect(throws: ConfigError.cannotRead(path: path, reason: "No such file or directory")) {
            try MirrorConfig.load(path: path)
        }
        #expect(throws: ConfigError.cannotRead(path: fixture.path, reason: "not a regular file")) {
            try MirrorConfig.load(path: fixture.path)
        }
    }
}

/// A temporary folder holding a `config.json` and the trust files configs refer to
/// (`ca.pem`, `crl.pem`, `server.pem`, `certs/extra-ca.pem`), written as real files.
final class ConfigFixture {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    /// A valid `sha256//` pin (32 zero bytes).
    static let pin = "sha256//" + String(repeating: "A", count: 43) + "="
    /// Another valid pin.
    static let otherPin = "sha256//" + String(repeating: "B", count: 42) + "A="

    init() throws {
        directory = try TemporaryDirectory(prefix: "config-test")
        try FileManager.default.createDirectory(at: directory.appending("certs"), withIntermediateDirectories: true)
        for file in ["ca.pem", "crl.pem", "server.pem", "certs/extra-ca.pem"] {
            try Data("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8).write(to: directory.appending(file))
        }
    }

    /// Writes `json` as `config.json` and loads it.
    func load(_ json: String, name: String = "config.json") throws(ConfigError) -> MirrorConfig {
        let file = directory.appending(name).path
        do {
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            fatalError("cannot write the fixture: \(error)")
        }
        return try MirrorConfig.load(path: file)
    }

    /// `json` loaded, with the error it throws (or `nil`).
    func error(_ json: String) -> ConfigError? {
        do {
            _ = try load(json)
            return nil
        } catch {
            return error
        }
    }

    /// A one-site config whose site object also contains `extra` (a JSON fragment).
    static func site(_ extra: String) -> String {
        """
        {"sites": [{"name": "intranet", "start": ["https://intranet.example/"]\(extra.isEmpty ? "" : ", " + extra)}]}
        """
    }
}
