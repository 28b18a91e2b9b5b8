import Foundation
import Testing
@testable import MirrorCLI

/// What an invalid config must report. `$DIR` in `found` stands for the fixture folder; a
/// `found` ending in "…" is compared as a prefix.
enum ExpectedConfigError: Sendable, CustomTestStringConvertible {
    case invalid(String, expected: String, found: String)
    case unknownKey(String, key: String, suggestion: String?)
    case missing(String)
    case literalSecret(String)

    var testDescription: String {
        switch self {
        case .invalid(let field, _, _), .unknownKey(let field, _, _), .missing(let field), .literalSecret(let field): return field
        }
    }
}

@Suite struct ConfigErrorTests {
    static let site = ConfigFixture.site
    static let pin = ConfigFixture.pin

    static let cases: [(String, ExpectedConfigError)] = [
        // Top level
        ("[]", .invalid("", expected: "an object with \"sites\"", found: "an empty array")),
        ("{}", .missing("sites")),
        (#"{"sites": []}"#, .invalid("sites", expected: "an array of at least one site objects", found: "an empty array")),
        (#"{"sites": ["intranet"]}"#, .invalid("sites[0]", expected: "a site object with \"name\" and \"start\"", found: "\"intranet\"")),
        (#"{"site": []}"#, .unknownKey("", key: "site", suggestion: "sites")),
        (#"{"zzz": 1, "sites": []}"#, .unknownKey("", key: "zzz", suggestion: nil)),
        (#"{"jobs": 0, "sites": []}"#, .invalid("jobs", expected: "a whole number from 1 to 1024", found: "0")),
        (#"{"jobs": 1025, "sites": []}"#, .invalid("jobs", expected: "a whole number from 1 to 1024", found: "1025")),
        (#"{"jobs": "8", "sites": []}"#, .invalid("jobs", expected: "a whole number from 1 to 1024", found: "\"8\"")),
        (#"{"jobs": 2.5, "sites": []}"#, .invalid("jobs", expected: "a whole number from 1 to 1024", found: "2.5")),
        (#"{"jobs": true, "sites": []}"#, .invalid("jobs", expected: "a whole number from 1 to 1024", found: "true")),
        (#"{"output": 3, "sites": []}"#, .invalid("output", expected: "a folder path", found: "3")),
        // Names and start URLs
        (#"{"sites": [{"start": ["https://a.example/"]}]}"#, .missing("sites[0].name")),
        (#"{"sites": [{"name": "a/b", "start": ["https://a.example/"]}]}"#,
         .invalid("sites[0].name", expected: "a name of 1 to 64 letters, digits, \".\", \"_\" or \"-\" (not \".\" or \"..\")", found: "\"a/b\"")),
        (#"{"sites": [{"name": "..", "start": ["https://a.example/"]}]}"#,
         .invalid("sites[0].name", expected: "a name of 1 to 64 letters, digits, \".\", \"_\" or \"-\" (not \".\" or \"..\")", found: "\"..\"")),
        (#"{"sites": [{"name": "", "start": ["https://a.example/"]}]}"#,
         .invalid("sites[0].name", expected: "a name of 1 to 64 letters, digits, \".\", \"_\" or \"-\" (not \".\" or \"..\")", found: "\"\"")),
        (#"{"sites": [{"name": "Docs", "start": ["https://a.example/"]}, {"name": "docs", "start": ["https://b.example/"]}]}"#,
         .invalid("sites[1].name", expected: "a name no other site uses (names are compared ignoring case)", found: "\"docs\", already used by sites[0].name")),
        (#"{"sites": [{"name": "a"}]}"#, .missing("sites[0].start")),
        (#"{"sites": [{"name": "a", "start": "https://a.example/"}]}"#,
         .invalid("sites[0].start", expected: "an array of at least one absolute http(s) URLs", found: "\"https://a.example/\"")),
        (#"{"sites": [{"name": "a", "start": []}]}"#,
         .invalid("sites[0].start", expected: "an array of at least one absolute http(s) URLs", found: "an empty array")),
        (#"{"sites": [{"name": "a", "start": ["https://a.example/", "ftp://a.example/"]}]}"#,
         .invalid("sites[0].start[1]", expected: "an absolute http(s) URL", found: "\"ftp://a.example/\" (…")),
        (#"{"sites": [{"name": "a", "start": ["/docs/"]}]}"#,
         .invalid("sites[0].start[0]", expected: "an absolute http(s) URL", found: "\"/docs/\" (…")),
        (site(#""Scope": {}"#), .unknownKey("sites[0]", key: "Scope", suggestion: "scope")),
        // Identity and secrets
        (site(#""identity": {"cert": "me.p12", "password": "hunter2"}"#), .literalSecret("sites[0].identity.password")),
        (site(#""identity": {"cert": "me.p12", "password": {"env": "A", "file": "b"}}"#),
         .invalid("sites[0].identity.password", expected: "exactly one of \"env\" or \"file\"", found: "keys \"env\", \"file\"")),
        (site(#""identity": {"cert": "me.p12", "password": {"env": "1X"}}"#),
         .invalid("sites[0].identity.password.env", expected: "an environment variable name ([A-Za-z_][A-Za-z0-9_]*)", found: "\"1X\"")),
        (site(#""identity": {"cert": "me.p12", "password": {"enviroment": "X"}}"#),
         .unknownKey("sites[0].identity.password", key: "enviroment", suggestion: nil)),
        (site(#""identity": {"cert": "me.p12", "password": 1234}"#),
         .invalid("sites[0].identity.password", expected: "{\"env\": \"VAR\"} or {\"file\": \"path\"} or \"prompt\"", found: "1234")),
        (site(#""identity": {"key": "me.key"}"#), .missing("sites[0].identity.cert")),
        (site(#""identity": {"cert": "me.der", "type": "DER"}"#),
         .invalid("sites[0].identity.type", expected: "\"P12\" or \"PEM\"", found: "\"DER\"")),
        (site(#""identity": {"cert": "me.p12", "hosts": ["https://a.example/"]}"#),
         .invalid("sites[0].identity.hosts[0]", expected: "a host pattern: host, host:port or *.domain", found: "\"https://a.example/\"")),
        (site(#""identity": {"cert": "me.p12", "host": []}"#), .unknownKey("sites[0].identity", key: "host", suggestion: "hosts")),
        (site(#""http": {"headers": {"Authorization": "Bearer abc"}}"#), .literalSecret("sites[0].http.headers.Authorization")),
        (site(#""http": {"headers": {"X Token": "1"}}"#),
         .invalid("sites[0].http.headers[\"X Token\"]", expected: "a header name made of letters, digits and !#$%&'*+-.^_`|~", found: "\"X Token\"")),
        (site(#""http": {"headers": {"X-A": 1}}"#),
         .invalid("sites[0].http.headers[\"X-A\"]", expected: "a header value string, or {\"env\": \"VAR\"} or {\"file\": \"path\"}", found: "1")),
        // Trust
        (site(#""trust": {"hosts": {"cdn.example.com": {"type": "publicKeys", "pins": ["\#(pin)", "md5//abc"]}}, "default": {"type": "default"}}"#),
         .invalid("sites[0].trust.hosts[\"cdn.example.com\"].pins[1]", expected: "a pin \"sha256//<base64 of 32 bytes>\"", found: "\"md5//abc\"")),
        (site(#""trust": {"default": {"type": "publicKeys", "pins": ["sha256//AAAAAAAAAAAAAAAAAAAAAA=="]}}"#),
         .invalid("sites[0].trust.default.pins[0]", expected: "a pin \"sha256//<base64 of 32 bytes>\"", found: "\"sha256//AAAAAAAAAAAAAAAAAAAAAA==\"")),
        (site(#""trust": {"default": {"type": "publicKeys", "pins": []}}"#),
         .invalid("sites[0].trust.default.pins", expected: "an array of at least one pins \"sha256//<base64 of 32 bytes>\"", found: "an empty array")),
        (site(#""trust": {"default": {"type": "default", "cacert": ["nope.pem"]}}"#),
         .invalid("sites[0].trust.default.cacert[0]", expected: "a readable file", found: "\"$DIR/nope.pem\" (No such file or directory)")),
        (site(#""trust": {"default": {"type": "default", "cacert": ["certs"]}}"#),
         .invalid("sites[0].trust.default.cacert[0]", expected: "a readable file", found: "\"$DIR/certs\" (not a regular file)")),
        (site(#""trust": {"default": {"type": "revocation", "crl": ["ca.pem", "missing-crl.pem"]}}"#),
         .invalid("sites[0].trust.default.crl[1]", expected: "a readable file", found: "\"$DIR/missing-crl.pem\" (No such file or directory)")),
        (site(#""trust": {"default": {"type": "revocation"}}"#), .missing("sites[0].trust.default.crl")),
        (site(#""trust": {"default": {"type": "pinnedCertificates", "certificates": []}}"#),
         .invalid("sites[0].trust.default.certificates", expected: "an array of at least one file paths", found: "an empty array")),
        (site(#""trust": {"default": {"type": "composite", "policies": []}}"#),
         .invalid("sites[0].trust.default.policies", expected: "an array of at least one trust policies", found: "an empty array")),
        (site(#""trust": {"default": {"type": "composite", "policies": [{"type": "default"}, {"type": "disabled", "verifyHost": false}]}}"#),
         .unknownKey("sites[0].trust.default.policies[1]", key: "verifyHost", suggestion: nil)),
        (site(#""trust": {"default": {"type": "publickeys", "pins": []}}"#),
         .invalid("sites[0].trust.default.type", expected: "one of \"default\", \"revocation\", \"pinnedCertificates\", \"publicKeys\", \"composite\", \"disabled\"", found: "\"publickeys\" (did you mean \"publicKeys\"?)")),
        (site(#""trust": {"default": {"cacert": ["ca.pem"]}}"#), .missing("sites[0].trust.default.type")),
        (site(#""trust": {"default": "default"}"#),
         .invalid("sites[0].trust.default", expected: "a trust policy object with \"type\"", found: "\"default\"")),
        (site(#""trust": {"default": {"type": "default", "verifyHost": "yes"}}"#),
         .invalid("sites[0].trust.default.verifyHost", expected: "true or false", found: "\"yes\"")),
        (site(#""trust": {"default": {"type": "default", "pins": []}}"#), .unknownKey("sites[0].trust.default", key: "pins", suggestion: nil)),
        (site(#""trust": {"hosts": {"cdn.example.com:443": {"type": "default"}}}"#),
         .invalid("sites[0].trust.hosts[\"cdn.example.com:443\"]", expected: "a host name or *.domain as the key (no scheme, port or path)", found: "\"cdn.example.com:443\"")),
        (site(#""trust": {"hosts": {"cdn.example.com": {"type": "default"}}}"#),
         .invalid("sites[0].start[0]", expected: "a host with a trust policy in sites[0].trust.hosts (there is no trust.default, so other hosts fail closed)", found: "host \"intranet.example\" with no trust policy")),
        (site(#""trust": {"hosts": {}}"#),
         .invalid("sites[0].start[0]", expected: "a host with a trust policy in sites[0].trust.hosts (there is no trust.default, so other hosts fail closed)", found: "host \"intranet.example\" with no trust policy")),
        // Scope, limits, refresh, serve
        (site(#""scope": {"include": ["regex:(unclosed"]}"#),
         .invalid("sites[0].scope.include[0]", expected: "a valid regular expression after \"regex:\"", found: "\"regex:(unclosed\"")),
        (site(#""scope": {"exclude": ["docs/"]}"#),
         .invalid("sites[0].scope.exclude[0]", expected: "a path prefix starting with \"/\" or \"regex:<pattern>\"", found: "\"docs/\"")),
        (site(#""scope": {"depth": -1}"#), .invalid("sites[0].scope.depth", expected: "a whole number ≥ 0", found: "-1")),
        (site(#""limits": {"maxPage": 10}"#), .unknownKey("sites[0].limits", key: "maxPage", suggestion: "maxPages")),
        (site(#""limits": {"maxFileSize": "12XB"}"#),
         .invalid("sites[0].limits.maxFileSize", expected: "a size in bytes or a string like \"256MiB\", \"2GiB\", \"500KB\" (at least 1 bytes)", found: "\"12XB\"")),
        (site(#""limits": {"maxBytes": -1}"#),
         .invalid("sites[0].limits.maxBytes", expected: "a size in bytes or a string like \"256MiB\", \"2GiB\", \"500KB\" (at least 1 bytes)", found: "-1")),
        (site(#""limits": {"connectTimeout": "10 minutes"}"#),
         .invalid("sites[0].limits.connectTimeout", expected: "a duration in seconds or a string like \"30s\", \"10m\", \"6h\", \"1d\" (more than 0)", found: "\"10 minutes\"")),
        (site(#""limits": {"totalTimeout": 0}"#),
         .invalid("sites[0].limits.totalTimeout", expected: "a duration in seconds or a string like \"30s\", \"10m\", \"6h\", \"1d\" (more than 0)", found: "0")),
        (site(#""limits": {"maxDecompressionRatio": 0.5}"#),
         .invalid("sites[0].limits.maxDecompressionRatio", expected: "a number ≥ 1", found: "0.5")),
        (site(#""limits": {"perHostConnections": 65}"#),
         .invalid("sites[0].limits.perHostConnections", expected: "a whole number from 1 to 64", found: "65")),
        (site(#""limits": {"httpVersion": "3"}"#),
         .invalid("sites[0].limits.httpVersion", expected: "\"auto\", \"1.1\" or \"2\"", found: "\"3\"")),
        (site(#""limits": {"httpVersion": 2}"#),
         .invalid("sites[0].limits.httpVersion", expected: "\"auto\", \"1.1\" or \"2\"", found: "2")),
        (site(#""refresh": {"keep": 0}"#), .invalid("sites[0].refresh.keep", expected: "a whole number from 1 to 1000", found: "0")),
        (site(#""refresh": {"every": "daily"}"#),
         .invalid("sites[0].refresh.every", expected: "a duration in seconds or a string like \"30s\", \"10m\", \"6h\", \"1d\" (more than 0)", found: "\"daily\"")),
        (site(#""serve": {"live": "yes"}"#), .invalid("sites[0].serve.live", expected: "true or false", found: "\"yes\"")),
        (#"{"sites": [{"name": "a", "start": ["https://a.example/"]}], "serve": {"bind": "0.0.0.0"}}"#,
         .invalid("serve.bind", expected: "a loopback address (\"127.0.0.1\", \"::1\" or \"localhost\") unless \"allowRemote\": true", found: "\"0.0.0.0\"")),
        (#"{"sites": [{"name": "a", "start": ["https://a.example/"]}], "serve": {"port": 70000}}"#,
         .invalid("serve.port", expected: "a whole number from 1 to 65535", found: "70000")),
        (#"{"sites": [{"name": "a", "start": ["https://a.example/"]}], "serve": {"allowremote": true}}"#,
         .unknownKey("serve", key: "allowremote", suggestion: "allowRemote")),
    ]

    @Test(arguments: cases)
    func invalidConfigNamesFieldExpectedAndFound(json: String, expected: ExpectedConfigError) throws {
        let fixture = try ConfigFixture()
        let file = fixture.path + "/config.json"
        let error = try #require(fixture.error(json), "the config was accepted")
        switch (error, expected) {
        case let (.invalid(gotFile, gotField, gotExpected, gotFound), .invalid(field, wantExpected, wantFound)):
            #expect(gotFile == file)
            #expect(gotField == field)
            #expect(gotExpected == wantExpected)
            let want = wantFound.replacingOccurrences(of: "$DIR", with: fixture.path)
            if want.hasSuffix("…") {
                #expect(gotFound.hasPrefix(String(want.dropLast())), "found: \(gotFound)")
            } else {
                #expect(gotFound == want)
            }
            #expect(error.summary == "\(file): \(field.isEmpty ? "(top level)" : field): expected \(gotExpected), found \(gotFound)")
        case let (.unknownKey(gotFile, gotField, gotKey, gotSuggestion), .unknownKey(field, key, suggestion)):
            #expect(gotFile == file && gotField == field && gotKey == key)
            #expect(gotSuggestion == suggestion)
            if let suggestion { #expect(error.summary.hasSuffix("did you mean \"\(suggestion)\"?")) }
        case let (.missing(gotFile, gotField), .missing(field)):
            #expect(gotFile == file && gotField == field)
            #expect(error.summary == "\(file): \(field): required but missing")
        case let (.literalSecret(gotFile, gotField), .literalSecret(field)):
            #expect(gotFile == file && gotField == field)
            #expect(error.summary.contains(#"use {"env": "VAR"} or {"file": "path"}"#))
            #expect(!error.description.contains("hunter2") && !error.description.contains("Bearer"))
        default:
            Issue.record("got \(error), expected \(expected)")
        }
        #expect(error.category == .usage)
        #expect(!error.hint.isEmpty)
    }

    @Test func summaryMatchesTheDocumentedExample() {
        let json = Self.site(#""trust": {"hosts": {"cdn.example.com": {"type": "publicKeys", "pins": ["\#(ConfigFixture.pin)", "md5//abc"]}}, "default": {"type": "default"}}"#)
        let error = #expect(throws: ConfigError.self) { try MirrorConfig.parse(Data(json.utf8), path: "config.json") }
        #expect(error?.summary == #"config.json: sites[0].trust.hosts["cdn.example.com"].pins[1]: expected a pin "sha256//<base64 of 32 bytes>", found "md5//abc""#)
    }

    @Test(arguments: [
        ("{\n  \"sites\": [],\n}", 3, 1, "expected a key in double quotes, found '}'"),
        ("{\n  // comment\n  \"sites\": []\n}", 2, 3, "expected a key in double quotes, found '/'"),
        ("{\"jobs\": 1,\n \"output\": \"a\",\n\n   \"jobs\": 2}", 4, 4, "duplicate key \"jobs\""),
        ("{\"output\": \"unterminated\n}", 1, 25, "control character byte 0xA inside a string (write it as an escape)"),
        ("{\"sites\": [1 2]}", 1, 14, "expected ',' or ']' in an array, found '2'"),
        ("{\"héllo\": tru}", 1, 11, "expected a value (string, number, object, array, true, false or null)"),
        ("", 1, 1, "unexpected end of file, expected a value"),
        ("{} {}", 1, 4, "unexpected content after the top-level value"),
        ("{\"a\": 01}", 1, 8, "expected ',' or '}' in an object, found '1'"),
    ] as [(String, Int, Int, String)])
    func invalidJSONReportsLineAndColumn(text: String, line: Int, column: Int, reason: String) {
        #expect(throws: ConfigError.invalidJSON(path: "config.json", line: line, column: column, reason: reason)) {
            try MirrorConfig.parse(Data(text.utf8), path: "config.json")
        }
    }

    @Test func invalidJSONSummaryStartsWithFileAndLine() {
        let error = ConfigError.invalidJSON(path: "sites.json", line: 3, column: 1, reason: "expected a key in double quotes, found '}'")
        #expect(error.summary == "sites.json: line 3, column 1: not valid JSON: expected a key in double quotes, found '}'")
        #expect(error.hint.contains("trailing commas"))
    }
}
