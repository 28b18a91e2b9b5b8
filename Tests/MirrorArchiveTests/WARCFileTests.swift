import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTestSupport
import Testing
@testable import MirrorArchive
#if canImport(Glibc)
import Glibc
#endif

/// WARC files on disk: one gzip member per record, `.open` until closed, rotation, the index,
/// recovery of a file a killed run left, and the archivists' own tools reading the result.
@Suite struct WARCFileTests {
    static func configuration(_ folder: String, maxFileSize: Int64 = 1 << 30) -> WARCArchiveWriter.Configuration {
        var info = WARCFields()
        info.append("software", "mtls-mirror/test")
        return WARCArchiveWriter.Configuration(
            folder: folder, indexFolder: folder, prefix: "site", maxFileSize: maxFileSize, info: info,
            redactedHeaders: WARCRecordBuilder.defaultRedactedHeaders)
    }

    /// Three exchanges: a page, an image (stored, not deflated), and a revisit of the page.
    static func writeSample(into folder: String, finish: Bool = true) throws -> WARCArchiveWriter {
        let writer = try WARCArchiveWriter(configuration: configuration(folder))
        let page = try writer.write(SampleCaptures.capture(body: Array(String(repeating: "<p>hello</p>", count: 100).utf8)), previous: nil)
        var image = SampleCaptures.capture(url: "https://localhost:8443/i.png", body: [UInt8](repeating: 7, count: 4000),
                                           responseHead: "HTTP/2 200 \r\ncontent-type: image/png\r\n\r\n")
        image.date = SampleCaptures.date.addingTimeInterval(1)
        try writer.write(image, previous: nil)
        var again = SampleCaptures.capture(body: Array(String(repeating: "<p>hello</p>", count: 100).utf8))
        again.date = SampleCaptures.date.addingTimeInterval(86_400)
        try writer.write(again, previous: page.reference)
        if finish { try writer.finish() }
        return writer
    }

    static func files(_ folder: String, suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
    }

    @Test func eachRecordIsAGzipMemberOfItsOwnAndTheFileIsPrivate() throws {
        let folder = try TemporaryFolderForTests()
        let writer = try Self.writeSample(into: folder.path)
        let warcs = Self.files(folder.path, suffix: ".warc.gz")
        #expect(warcs.count == 1 && Self.files(folder.path, suffix: ".open").isEmpty)
        let path = folder.path + "/" + warcs[0]
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(writer.finished == [.init(name: warcs[0], bytes: Int64(info.st_size), records: 7, indexName: CDXJIndex.name(forWARC: warcs[0]))])
        #expect(warcs[0].hasPrefix("site-20251202000000250000-00001-"))

        let members = try decompressMembers(path)
        #expect(members.count == 7)
        let scan = try WARCReader(path: path).scan(keep: nil)
        #expect(scan.damage == nil && scan.validLength == Int64(info.st_size))
        #expect(scan.records.map(\.type) == [.warcinfo, .request, .response, .request, .response, .request, .revisit])
        for (record, member) in zip(scan.records, members) {
            #expect(record.version == "WARC/1.1")
            #expect(record.isComplete)
            #expect(Array(member.suffix(4)) == [0x0D, 0x0A, 0x0D, 0x0A])
            let digest = record.fields["WARC-Block-Digest"]
            #expect(digest == "sha256:" + SHA256Digest.hex(record.httpHead + record.payload), "\(record.fields)")
        }
        let imageMember = scan.records[4]
        #expect(imageMember.length > 4000, "an image is stored, not deflated")
        #expect(scan.records[2].length < 800, "text is deflated: 1,200 bytes of repetitive HTML")
        #expect(scan.records[1].length < Int64(members[1].count), "a request record is deflated")
        let one = try WARCReader(path: path).record(at: scan.records[2].offset)
        #expect(one.payload == Array(String(repeating: "<p>hello</p>", count: 100).utf8))
    }

    @Test func warcioChecksEveryDigestAndIndexesEveryRecord() throws {
        let folder = try TemporaryFolderForTests()
        _ = try Self.writeSample(into: folder.path)
        let path = folder.path + "/" + Self.files(folder.path, suffix: ".warc.gz")[0]
        let warcio = try PythonTools.runner("warcio")
        let check = warcio.run(["check", "-v", path])
        #expect(check.exitCode == 0, "\(check)")
        #expect(check.stdout.components(separatedBy: "digest pass").count - 1 == 6, "\(check.stdout)")
        let index = warcio.run(["index", "-f", "warc-type,warc-target-uri,http:status", path])
        #expect(index.exitCode == 0, "\(index)")
        let lines = index.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
        }
        #expect(lines.map { $0["warc-type"] ?? "" } == ["warcinfo", "request", "response", "request", "response", "request", "revisit"])
        #expect(lines[2]["http:status"] == "200" && lines[6]["http:status"] == "200")
        #expect(lines[4]["warc-target-uri"] == "https://localhost:8443/i.png")
    }

    @Test func cdxjIndexerAgreesWithOurIndexLineForLine() throws {
        let folder = try TemporaryFolderForTests()
        let writer = try Self.writeSample(into: folder.path)
        let warc = folder.path + "/" + writer.finished[0].name
        let ours = try String(contentsOfFile: folder.path + "/" + writer.finished[0].indexName, encoding: .utf8)
        let theirs = try PythonTools.runner("cdxj-indexer").run([warc, "--sort"])
        #expect(theirs.exitCode == 0, "\(theirs)")
        #expect(ours == theirs.stdout, "ours:\n\(ours)\ntheirs:\n\(theirs.stdout)")
        #expect(ours.split(separator: "\n").count == 3)
    }

    @Test func aFullFileIsClosedAndTheNextOneStartsWithItsOwnWarcinfo() throws {
        let folder = try TemporaryFolderForTests()
        let writer = try WARCArchiveWriter(configuration: Self.configuration(folder.path, maxFileSize: 1))
        for index in 0..<3 {
            try writer.write(SampleCaptures.capture(url: "https://localhost:8443/p\(index).html"), previous: nil)
        }
        try writer.finish()
        let warcs = Self.files(folder.path, suffix: ".warc.gz")
        #expect(warcs.count == 3 && writer.finished.map(\.name) == warcs)
        for warc in warcs {
            let records = try WARCReader(path: folder.path + "/" + warc).scan().records
            #expect(records.map(\.type) == [.warcinfo, .request, .response])
            #expect(records[0].fields["WARC-Filename"] == warc)
            #expect(records[1].fields["WARC-Warcinfo-ID"] == records[0].fields["WARC-Record-ID"])
            #expect(records[2].fields["WARC-Warcinfo-ID"] == records[0].fields["WARC-Record-ID"])
        }
    }

    @Test func recoveryCutsAHalfWrittenMemberAndFinishesTheFile() throws {
        let folder = try TemporaryFolderForTests()
        // A killed run: its records reached the file (the sink writes out its buffer whenever it
        // waits), the file was never closed.
        try Self.writeSample(into: folder.path, finish: false).flush()
        let open = Self.files(folder.path, suffix: ".warc.gz.open")
        #expect(open.count == 1 && Self.files(folder.path, suffix: ".warc.gz").isEmpty)
        let path = folder.path + "/" + open[0]
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        // The start of one more member, as a write cut by SIGKILL leaves it.
        let extra = try Self.oneMember(folder: folder.path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(extra.prefix(extra.count / 2))
        try handle.close()

        let outcomes = try WARCFileRecovery.recover(folder: folder.path, indexFolder: folder.path)
        let name = String(open[0].dropLast(5))
        #expect(outcomes == [.init(name: name, records: 7, truncatedBytes: Int64(extra.count / 2))])
        #expect(Self.files(folder.path, suffix: ".open").isEmpty)
        let recovered = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name))
        #expect(recovered == whole)
        let check = try PythonTools.runner("warcio").run(["check", folder.path + "/" + name])
        #expect(check.exitCode == 0, "\(check)")
        let index = try CDXJIndex.read(folder.path + "/" + CDXJIndex.name(forWARC: name))
        #expect(index.count == 3 && index.allSatisfy { $0.filename == name })
    }

    @Test func recoveryRemovesAnOpenFileWithoutAWholeRecordAndKeepsGarbageOut() throws {
        let folder = try TemporaryFolderForTests()
        let empty = folder.path + "/site-1.warc.gz.open"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data([0x1F, 0x8B, 0x08, 0x00])))
        let garbage = folder.path + "/site-2.warc.gz.open"
        let member = try Self.oneMember(folder: folder.path)
        #expect(FileManager.default.createFile(atPath: garbage, contents: member + Data("not gzip at all".utf8)))
        let outcomes = try WARCFileRecovery.recover(folder: folder.path, indexFolder: folder.path)
        #expect(outcomes.map(\.name) == ["site-1.warc.gz", "site-2.warc.gz"])
        #expect(outcomes.map(\.records) == [0, 1])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/site-1.warc.gz"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/site-2.warc.gz")) == member)
    }

    /// The bytes of one gzip member holding one record (written and read back from a scratch file).
    static func oneMember(folder: String) throws -> Data {
        let scratch = folder + "/scratch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let builder = WARCRecordBuilder()
        let record = builder.warcinfo(filename: "x.warc.gz", date: SampleCaptures.date, info: WARCFields())
        let file = try WARCFileWriter(folder: scratch, name: "x.warc.gz", warcinfo: record, encoder: try GzipEncoder(), buffer: try GzipBuffer())
        try file.close()
        return try Data(contentsOf: URL(fileURLWithPath: scratch + "/x.warc.gz"))
    }
}
