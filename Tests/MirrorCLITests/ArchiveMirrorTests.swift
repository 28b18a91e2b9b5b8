import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `mirror --warc` against a real nginx that requires client certificates: WARC 1.1 from the
/// crawl's own fetches, read back by warcio and cdxj-indexer, checked record by record, free of
/// secrets, revisits on refresh, and whole records after a SIGKILL.
@Suite(.serialized) struct ArchiveMirrorTests {
    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    static let directives = """
        gzip on; gzip_types text/css application/javascript; gzip_min_length 1;
        location = /account.html { add_header Set-Cookie "session=SERVER-SESSION-SECRET; Secure; HttpOnly"; }
        """

    /// A small site: pages, a gzip'd stylesheet with url() and @import, a script, images.
    /// `noise` adds that many bytes of text deflate cannot shrink much to each page.
    static func writeSite(_ nginx: NginxFixture, pages: Int = 6, noise: Int = 0) throws {
        var links = ""
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for index in 1...pages {
            links += "<li><a href=\"p\(index).html\">page \(index)</a></li>"
            var text = ""
            for _ in 0..<noise {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text.append(letters[Int(state >> 33) % letters.count])
            }
            try nginx.site.write("p\(index).html", "<!doctype html><title>p\(index)</title><link rel=stylesheet href=style.css>"
                                 + "<p>page \(index) " + String(repeating: "text ", count: 200) + text + "</p><img src=img/logo.png>")
        }
        try nginx.site.write("index.html", "<!doctype html><html><head><title>Archive home</title><link rel=stylesheet href=style.css>"
                             + "<script src=app.js></script></head><body><h1 id=title>Archived over mTLS</h1><ul>\(links)</ul>"
                             + "<a href=account.html>account</a><img src=img/logo.png srcset=\"img/logo.png 1x, img/logo2.png 2x\"></body></html>")
        try nginx.site.write("account.html", "<!doctype html><title>account</title><p>signed in</p>")
        try nginx.site.write("style.css", "@import url(extra.css); body { background: url(img/bg.png); color: #123 }" + String(repeating: "\n/* pad */", count: 50))
        try nginx.site.write("extra.css", "h1 { font-weight: bold }")
        try nginx.site.write("app.js", "document.documentElement.dataset.ready = 'yes';")
        var png = [UInt8](repeating: 0, count: 3000)
        for index in png.indices { png[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 3) }
        try nginx.site.write("img/logo.png", Data(png))
        try nginx.site.write("img/logo2.png", Data(png.reversed()))
        try nginx.site.write("img/bg.png", Data(repeating: 0x42, count: 512))
    }

    struct Site {
        let nginx: NginxFixture
        let output: TemporaryDirectory
        let scratch: TemporaryDirectory
        var archive: String { output.path + "/site/archive" }

        init(pages: Int = 6, noise: Int = 0) throws {
            nginx = try NginxFixture(.mtls, options: .init(extraServerDirectives: ArchiveMirrorTests.directives))
            try ArchiveMirrorTests.writeSite(nginx, pages: pages, noise: noise)
            output = try TemporaryDirectory(prefix: "archive-out")
            scratch = try TemporaryDirectory(prefix: "archive-scratch")
            try "localhost\tFALSE\t/\tFALSE\t0\tjar\tCOOKIE-JAR-SECRET\n".write(
                to: scratch.appending("cookies.txt"), atomically: true, encoding: .utf8)
        }

        var arguments: [String] { arguments(jobs: 8) }

        func arguments(jobs: Int) -> [String] {
            ["mirror", nginx.url(.mtls), "-o", output.path, "--name", "site", "--cacert", nginx.pki.path("server-root.pem"),
             "--cert", nginx.pki.path("client.p12"), "--pass-env", "ARCHIVE_PASS", "-j", String(jobs), "--warc",
             "-H", "Authorization: Bearer HEADER-TOKEN-SECRET", "--cookies", scratch.appending("cookies.txt").path]
        }

        var environment: [String: String] { ["ARCHIVE_PASS": nginx.pki.password, "NO_COLOR": "1"] }

        func warcs() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: archive)) ?? []).filter { $0.hasSuffix(".warc.gz") }.sorted()
                .map { archive + "/" + $0 }
        }

        func manifestURLs() throws -> [String: Int] {
            let text = try String(contentsOfFile: output.path + "/site/current/_mirror/manifest.tsv", encoding: .utf8)
            var urls: [String: Int] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count > 2, let status = Int(fields[2]) { urls[String(fields[0])] = status }
            }
            return urls
        }
    }

    func mirror(_ site: Site, _ extra: [String] = []) -> CommandRunner.Result {
        runner.run(site.arguments + extra, environment: site.environment, timeout: 300)
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func theArchiveHoldsEveryFetchAndTheToolsReadIt() throws {
        let site = try Site()
        let before = site.nginx.accessLogEntries(for: .mtls).count
        let run = mirror(site)
        #expect(run.exitCode == 0, "\(run)")
        #expect(run.stderr.contains("archived "), "\(run.stderr)")
        let warcs = site.warcs()
        try #require(warcs.count == 1, "\(warcs)")

        // Private files and folders; nothing left open or spooled.
        #expect(Self.mode(site.archive) == 0o700 && Self.mode(site.archive + "/indexes") == 0o700)
        for file in warcs + [site.archive + "/captures.tsv"] { #expect(Self.mode(file) == 0o600, "\(file)") }
        let listing = try FileManager.default.contentsOfDirectory(atPath: site.archive)
        #expect(!listing.contains { $0.hasSuffix(".open") }, "\(listing)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.archive + "/.spool").isEmpty)

        // One download per URL: the archive came from the mirror's own fetches.
        let manifest = try site.manifestURLs()
        let requests = site.nginx.accessLogEntries(for: .mtls, atLeast: before + manifest.count).dropFirst(before)
        #expect(requests.count == manifest.count + 1, "robots.txt and each URL once: \(requests.map(\.target))")

        // warcio checks every digest, and lists every capture.
        let warcio = try PythonTools.runner("warcio")
        let check = warcio.run(["check", "-v"] + warcs)
        #expect(check.exitCode == 0, "\(check)")
        #expect(!check.stdout.contains("fail"), "\(check.stdout)")
        let index = warcio.run(["index", "-f", "warc-type,warc-target-uri,http:status"] + warcs)
        let listed = index.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        let responses = Dictionary(listed.filter { $0["warc-type"] == "response" }.map { ($0["warc-target-uri"] ?? "", Int($0["http:status"] ?? "") ?? 0) },
                                   uniquingKeysWith: { a, _ in a })
        for (url, status) in manifest { #expect(responses[url] == status, "\(url) is captured with \(status)") }
        #expect(responses[site.nginx.url(.mtls, path: "/robots.txt")] == 404)
        #expect(listed.filter { $0["warc-type"] == "request" }.count == responses.count)

        // cdxj-indexer agrees with our index, line for line.
        let name = (warcs[0] as NSString).lastPathComponent
        let ours = try String(contentsOfFile: site.archive + "/indexes/" + name.replacingOccurrences(of: ".warc.gz", with: ".cdxj"), encoding: .utf8)
        let theirs = try PythonTools.runner("cdxj-indexer").run([warcs[0], "--sort"])
        #expect(theirs.exitCode == 0 && ours == theirs.stdout, "ours:\n\(ours)\ntheirs:\n\(theirs.stdout)")
        #expect(ours.split(separator: "\n").count == responses.count)
    }

    @Test func everyRecordHasWhatWARC11RequiresAndNoSecret() throws {
        let site = try Site()
        // HTTP/2 throughout (on loopback `auto` moves to HTTP/1.1), so that its records show
        // the translation to HTTP/1.1 messages.
        let run = mirror(site, ["--http-version", "2"])
        #expect(run.exitCode == 0, "\(run)")
        let key = try String(contentsOfFile: site.nginx.pki.path("client.key"), encoding: .utf8).split(separator: "\n")
        let keyLine = String(key[key.count / 2])
        let secrets = [site.nginx.pki.password, "HEADER-TOKEN-SECRET", "COOKIE-JAR-SECRET", "SERVER-SESSION-SECRET", keyLine]
        let audit = try WARCAudit.audit(site.warcs(), needles: secrets)
        #expect(audit.found.isEmpty, "secrets in the archive: \(audit.found.keys.sorted())")
        try Self.checkRecords(audit.records, site: site)

        let byURI = Dictionary(grouping: audit.records.filter { $0.type == "response" }) { $0.field("WARC-Target-URI") ?? "" }
        // A gzip'd stylesheet stays as nginx sent it, over HTTP/2, written as HTTP/1.1.
        let css = try #require(byURI[site.nginx.url(.mtls, path: "/style.css")]?.first)
        #expect(css.httpField("content-encoding") == "gzip")
        #expect(css.payloadStart.hasPrefix("1f8b"), "\(css.payloadStart)")
        #expect(css.httpLine == "HTTP/1.1 200 OK" && css.values("WARC-Protocol") == ["h2", "tls/1.3"])
        // The redacted headers are there, with their values replaced.
        let account = try #require(byURI[site.nginx.url(.mtls, path: "/account.html")]?.first)
        #expect(account.httpField("set-cookie") == "REDACTED")
        let request = try #require(audit.records.first { $0.type == "request" && $0.field("WARC-Target-URI") == site.nginx.url(.mtls, path: "/account.html") })
        #expect(request.httpField("authorization") == "REDACTED" && request.httpField("cookie") == "REDACTED")
        #expect(request.httpLine?.hasPrefix("GET /account.html HTTP/1.1") == true, "\(request.httpLine ?? "")")
    }

    /// The fields WARC 1.1 requires, record by record (warcio checks digests only).
    static func checkRecords(_ records: [WARCAudit.Record], site: Site) throws {
        let idPattern = #"^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$"#
        let datePattern = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"#
        let digestPattern = #"^sha256:[0-9a-f]{64}$"#
        func matches(_ text: String?, _ pattern: String) -> Bool { text?.range(of: pattern, options: .regularExpression) != nil }
        let byFile = Dictionary(grouping: records, by: \.file)
        for (file, records) in byFile {
            let warcinfo = try #require(records.first)
            #expect(warcinfo.type == "warcinfo" && warcinfo.offset == 0, "a file starts with its warcinfo")
            #expect(warcinfo.field("WARC-Filename") == (file as NSString).lastPathComponent)
            #expect(warcinfo.field("Content-Type") == "application/warc-fields")
            let ids = Set(records.compactMap { $0.field("WARC-Record-ID") })
            #expect(ids.count == records.count, "record ids are unique")
            let responseIDs = Set(records.filter { ["response", "revisit"].contains($0.type) }.compactMap { $0.field("WARC-Record-ID") })
            for record in records {
                #expect(record.version == "WARC/1.1")
                #expect(matches(record.field("WARC-Record-ID"), idPattern), "\(record.fields)")
                #expect(matches(record.field("WARC-Date"), datePattern), "\(record.fields)")
                #expect(record.field("Content-Length") != nil && matches(record.field("WARC-Block-Digest"), digestPattern))
                #expect(record.values("WARC-Type").count == 1 && record.values("WARC-Record-ID").count == 1)
                guard record.type != "warcinfo" else { continue }
                #expect(["request", "response", "revisit"].contains(record.type))
                #expect(record.field("WARC-Target-URI")?.hasPrefix(site.nginx.url(.mtls, path: "/")) == true)
                #expect(record.field("WARC-IP-Address") == "127.0.0.1")
                #expect(record.field("WARC-Warcinfo-ID") == warcinfo.field("WARC-Record-ID"))
                #expect(matches(record.field("WARC-Payload-Digest"), digestPattern), "\(record.fields)")
                switch record.type {
                case "request":
                    #expect(record.field("Content-Type") == "application/http;msgtype=request")
                    #expect(responseIDs.contains(record.field("WARC-Concurrent-To") ?? ""), "linked to its response")
                case "response":
                    #expect(record.field("Content-Type") == "application/http;msgtype=response")
                    #expect(record.digestsPassed == true, "\(record.digestProblems)")
                    #expect(record.payloadSHA256 == record.field("WARC-Payload-Digest")?.dropFirst(7).description)
                    #expect(record.httpLine?.hasPrefix("HTTP/1.1 ") == true)
                default:
                    #expect(record.field("WARC-Profile")?.hasPrefix("http://netpreserve.org/warc/1.1/revisit/") == true)
                    #expect(record.payloadLength == 0, "a revisit holds the HTTP head only")
                }
                // The request and its response share the capture time.
                if record.type == "request", let response = records.first(where: { $0.field("WARC-Record-ID") == record.field("WARC-Concurrent-To") }) {
                    #expect(response.field("WARC-Date") == record.field("WARC-Date"))
                    #expect(response.field("WARC-Target-URI") == record.field("WARC-Target-URI"))
                }
            }
        }
    }

    @Test func aRefreshOfAnUnchangedSiteWritesOnlyRevisits() throws {
        let site = try Site()
        #expect(mirror(site).exitCode == 0)
        let first = try WARCAudit.audit(site.warcs())
        let originals = Dictionary(uniqueKeysWithValues: first.records.filter { $0.type == "response" }.map {
            ($0.field("WARC-Target-URI") ?? "", $0)
        })

        let second = mirror(site)
        #expect(second.exitCode == 0, "\(second)")
        let warcs = site.warcs()
        try #require(warcs.count == 2)
        let refresh = try WARCAudit.audit([warcs[1]])
        #expect(Set(refresh.records.map(\.type)) == ["warcinfo", "request", "revisit"], "\(refresh.records.map(\.type))")
        let revisits = refresh.records.filter { $0.type == "revisit" }
        #expect(revisits.count == originals.count, "every URL revisited")
        for revisit in revisits {
            let uri = revisit.field("WARC-Target-URI") ?? ""
            let original = try #require(originals[uri], "\(uri)")
            // robots.txt has no validators here (a 404): the same page again is an identical-payload revisit.
            let profile = uri.hasSuffix("/robots.txt") ? "identical-payload-digest" : "server-not-modified"
            #expect(revisit.field("WARC-Profile") == "http://netpreserve.org/warc/1.1/revisit/" + profile, "\(uri)")
            #expect(revisit.status == (uri.hasSuffix("/robots.txt") ? 404 : 304), "\(uri): \(revisit.httpLine ?? "")")
            #expect(revisit.field("WARC-Refers-To") == original.field("WARC-Record-ID"))
            #expect(revisit.field("WARC-Refers-To-Target-URI") == uri)
            #expect(revisit.field("WARC-Refers-To-Date") == original.field("WARC-Date"))
            #expect(revisit.field("WARC-Payload-Digest") == original.field("WARC-Payload-Digest"))
        }
        try Self.checkRecords(refresh.records, site: site)
        #expect(try PythonTools.runner("warcio").run(["check"] + warcs).exitCode == 0)

        // Downloading everything again: the same payloads, so identical-payload-digest revisits.
        let full = mirror(site, ["--full"])
        #expect(full.exitCode == 0, "\(full)")
        let third = try WARCAudit.audit([site.warcs()[2]])
        let again = third.records.filter { $0.type == "revisit" }
        #expect(third.records.filter { $0.type == "response" }.isEmpty)
        #expect(again.count == originals.count)
        for revisit in again {
            let uri = revisit.field("WARC-Target-URI") ?? ""
            #expect(revisit.field("WARC-Profile") == "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
            #expect(revisit.field("WARC-Payload-Digest") == originals[uri]?.field("WARC-Payload-Digest"))
            #expect(revisit.field("WARC-Refers-To-Date") == originals[uri]?.field("WARC-Date"))
        }

        // One page changes: it alone is a full response.
        Thread.sleep(forTimeInterval: 1.1)  // nginx ETags use whole-second mtimes
        try site.nginx.site.write("p2.html", "<!doctype html><title>p2</title><p>page 2, version 2</p>")
        #expect(mirror(site).exitCode == 0)
        let fourth = try WARCAudit.audit([site.warcs()[3]])
        #expect(fourth.records.filter { $0.type == "response" }.map { $0.field("WARC-Target-URI") ?? "" } == [site.nginx.url(.mtls, path: "/p2.html")])
    }

    @Test func aSIGKILLDuringARunLeavesOnlyWholeRecords() throws {
        // About 3 MB of records: the writer's 1 MiB buffer reaches the file while the run goes on,
        // however far the writer lags behind the crawl.
        let site = try Site(pages: 400, noise: 8000)
        let process = Process()
        process.executableURL = runner.executable
        process.arguments = site.arguments(jobs: 2)
        process.environment = ProcessInfo.processInfo.environment.merging(site.environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill once the open file has a few hundred records in it.
        let deadline = Date().addingTimeInterval(60)
        var open: String?
        while Date() < deadline, process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: site.archive)) ?? []
            if let name = names.first(where: { $0.hasSuffix(".warc.gz.open") }), Self.size(site.archive + "/" + name) > 150_000 {
                open = name
                break
            }
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let name = try #require(open, "the run ended before its open file grew")
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(site.warcs().isEmpty, "an unfinished file is never named like a finished one")

        // The next run finishes the file a killed run left, then archives as usual.
        let next = mirror(site)
        #expect(next.exitCode == 0, "\(next)")
        #expect(next.stderr.contains("which an interrupted run had left open"), "\(next.stderr)")
        let warcs = site.warcs()
        #expect(warcs.count == 2 && warcs.contains(site.archive + "/" + name.dropLast(5)))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: site.archive)).contains { $0.hasSuffix(".open") })
        let check = try PythonTools.runner("warcio").run(["check"] + warcs)
        #expect(check.exitCode == 0, "\(check)")
        let audit = try WARCAudit.audit(warcs)
        #expect(audit.records.filter { $0.type == "response" }.count > 100)
        for record in audit.records where record.type == "response" { #expect(record.digestsPassed == true) }
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
