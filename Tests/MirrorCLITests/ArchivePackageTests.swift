import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The archive as the ecosystem's tools open it: `mtls-mirror archive` packs a WACZ that
/// `wacz validate` accepts, and pywb replays a page mirrored over mTLS from our WARC files, which
/// headless Chromium then shows with every request answered.
@Suite(.serialized) struct ArchivePackageTests {
    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    @Test func theWACZPackageIsValidAndHoldsEveryCapture() throws {
        let site = try ArchiveMirrorTests.Site()
        #expect(runner.run(site.arguments, environment: site.environment, timeout: 300).exitCode == 0)
        #expect(runner.run(site.arguments, environment: site.environment, timeout: 300).exitCode == 0, "a refresh: revisits")
        let wacz = site.scratch.appending("site.wacz").path
        let packed = runner.run(["archive", "site", "-o", site.output.path, "--wacz", wacz], environment: ["NO_COLOR": "1"])
        #expect(packed.exitCode == 0, "\(packed)")
        #expect(packed.stdout == wacz + "\n")
        #expect(ArchiveMirrorTests.mode(wacz) == 0o600)

        let validate = try PythonTools.runner("wacz").run(["validate", "-f", wacz], timeout: 120)
        #expect(validate.exitCode == 0, "\(validate)")
        #expect(validate.stdout.contains("Validation succeeded, the passed WACZ is valid"), "\(validate.stdout)")

        // Inside: stored entries, the index cdxj-indexer would write, the pages, the hashes.
        let script = """
            import hashlib, json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            names = z.namelist()
            package = json.loads(z.read("datapackage.json"))
            hashes = {r["path"]: (r["hash"], r["bytes"]) for r in package["resources"]}
            ok = all(hashes.get(n) == ("sha256:" + hashlib.sha256(z.read(n)).hexdigest(), len(z.read(n)))
                     for n in names if n not in ("datapackage.json", "datapackage-digest.json"))
            digest = json.loads(z.read("datapackage-digest.json"))["hash"]
            print(json.dumps({"names": names, "stored": all(i.compress_type == 0 for i in z.infolist()), "hashes": ok,
                              "digest": digest == "sha256:" + hashlib.sha256(z.read("datapackage.json")).hexdigest(),
                              "version": package.get("wacz_version"), "main": package.get("mainPageURL"),
                              "index": z.read("indexes/index.cdxj").decode(), "pages": z.read("pages/pages.jsonl").decode()}))
            """
        let inspected = CommandRunner(executable: try PythonTools.tool("python")).run(["-c", script, wacz])
        #expect(inspected.exitCode == 0, "\(inspected)")
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        let names = facts["names"] as? [String] ?? []
        let warcs = site.warcs().map { "archive/" + ($0 as NSString).lastPathComponent }
        #expect(Set(names) == Set(warcs + ["indexes/index.cdxj", "pages/pages.jsonl", "datapackage.json", "datapackage-digest.json"]))
        #expect(facts["stored"] as? Bool == true && facts["hashes"] as? Bool == true && facts["digest"] as? Bool == true)
        #expect(facts["version"] as? String == "1.1.1")
        #expect(facts["main"] as? String == site.nginx.url(.mtls))
        let theirs = try PythonTools.runner("cdxj-indexer").run(site.warcs() + ["--sort"])
        #expect(facts["index"] as? String == theirs.stdout, "the package's index is what cdxj-indexer makes of the WARC files")
        let pages = (facts["pages"] as? String ?? "").split(separator: "\n")
        #expect(pages.first?.contains("\"format\": \"json-pages-1.0\"") == true)
        #expect(pages.count == 9, "header, index, account and six pages: \(pages)")
        #expect(pages.contains { $0.contains("\"url\": \"\(site.nginx.url(.mtls))\"") })

        // Nothing is overwritten; a site without an archive says what to do.
        let again = runner.run(["archive", "site", "-o", site.output.path, "--wacz", wacz], environment: ["NO_COLOR": "1"])
        #expect(again.exitCode == 2 && again.stderr.contains("exists already"), "\(again)")
        let plain = try TemporaryDirectory()
        let none = runner.run(["archive", "site", "-o", plain.path], environment: ["NO_COLOR": "1"])
        #expect(none.exitCode == 2 && none.stderr.contains("has no archive") && none.stderr.contains("--warc"), "\(none)")
    }

    @Test func pywbReplaysAnMTLSPageFromOurWARCAndChromiumShowsIt() throws {
        let site = try ArchiveMirrorTests.Site()
        #expect(runner.run(site.arguments, environment: site.environment, timeout: 300).exitCode == 0)
        let browser = try HeadlessBrowser()
        let pywb = try PywbReplay(warcs: site.warcs())
        // The capture's own timestamp (pywb runs without its frame).
        let index = try String(contentsOfFile: site.warcs()[0].replacingOccurrences(of: "/archive/site-", with: "/archive/indexes/site-")
            .replacingOccurrences(of: ".warc.gz", with: ".cdxj"), encoding: .utf8)
        let timestamp = try #require(index.split(separator: "\n").first?.split(separator: " ").dropFirst().first)
        let visit = try browser.visit(pywb.url("\(timestamp)/" + site.nginx.url(.mtls)))
        let log = pywb.stop()
        #expect(visit.dom.contains("Archived over mTLS"), "\(visit.dom.prefix(500))")
        #expect(visit.dom.contains("data-ready=\"yes\""), "the archived script ran: \(visit.dom.prefix(300))")
        let requests = PywbReplay.requests(in: log).filter { !$0.target.hasSuffix("favicon.ico") }
        let failed = requests.filter { $0.status >= 400 }
        #expect(failed.isEmpty, "failed requests: \(failed)\n\(log.suffix(3000))")
        let replayed = Set(requests.map(\.target))
        for path in ["/style.css", "/extra.css", "/app.js", "/img/logo.png", "/img/bg.png"] {
            #expect(replayed.contains { $0.contains("/https://localhost:\(site.nginx.port(.mtls))" + path) }, "\(path) in \(replayed)")
        }
        let toOrigin = visit.requestedURLs.filter { $0.contains("localhost:\(site.nginx.port(.mtls))") && !$0.contains("127.0.0.1:\(pywb.port)") }
        #expect(toOrigin.isEmpty, "the browser reached for the origin: \(toOrigin)")
    }
}
