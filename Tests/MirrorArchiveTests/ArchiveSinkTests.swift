import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTestSupport
import Testing
@testable import MirrorArchive

/// The sink any producer hands its captures to: many tasks at once through a small queue, the
/// file closed and indexed at the end, the history that the next run's revisits refer to, and
/// spooled payloads taken over and removed.
@Suite struct ArchiveSinkTests {
    static func configuration(_ folder: String, budget: Int = 32 << 20) -> ArchiveSink.Configuration {
        var info = WARCFields()
        info.append("software", "mtls-mirror/test")
        return ArchiveSink.Configuration(site: "site", folder: folder + "/archive", info: info, queueBudget: budget)
    }

    @Test func manyProducersThroughASmallQueueGetEveryExchangeWritten() async throws {
        let folder = try TemporaryFolderForTests()
        // A budget smaller than one payload: every producer waits for the writer in turn.
        let sink = try ArchiveSink.open(Self.configuration(folder.path, budget: 1000))
        #expect(!sink.hasCapture(of: "https://localhost:8443/p0.html"))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let body = Array("<p>page \(index) ".utf8) + [UInt8](repeating: 0x41, count: 2000)
                    await sink.record(SampleCaptures.capture(url: "https://localhost:8443/p\(index).html", body: body))
                }
            }
        }
        let summary = try await sink.finish()
        #expect(summary.exchanges == 200 && summary.revisits == 0 && summary.files.count == 1)
        let warc = folder.path + "/archive/" + summary.files[0]
        let records = try WARCReader(path: warc).scan().records
        #expect(records.count == 401 && records.filter { $0.type == .response }.count == 200)
        #expect(Set(records.compactMap { $0.fields["WARC-Target-URI"] }).count == 200)
        let index = try CDXJIndex.read(folder.path + "/archive/indexes/" + CDXJIndex.name(forWARC: summary.files[0]))
        #expect(index.count == 200 && index == index.sorted())
        #expect(summary.bytes == Int64((try FileManager.default.attributesOfItem(atPath: warc)[.size] as? Int) ?? 0))
    }

    @Test func theWriterThreadRunsBelowTheCrawl() async throws {
        let folder = try TemporaryFolderForTests()
        let sink = try ArchiveSink.open(Self.configuration(folder.path))
        var nice: Int?
        for _ in 0..<100 where nice == nil {
            for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
                guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                      stat.contains("(mm-archive)"), let close = stat.range(of: ")", options: .backwards) else { continue }
                // Fields after the name: state is field 3, nice field 19.
                let fields = stat[close.upperBound...].split(separator: " ")
                nice = Int(fields[16])
            }
            if nice == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        }
        _ = try await sink.finish()
        #expect(nice == 10)
    }

    @Test func theNextRunRevisitsWhatTheLastOneCaptured() async throws {
        let folder = try TemporaryFolderForTests()
        let first = try ArchiveSink.open(Self.configuration(folder.path))
        await first.record(SampleCaptures.capture())
        _ = try await first.finish()

        let second = try ArchiveSink.open(Self.configuration(folder.path))
        #expect(second.hasCapture(of: "https://localhost:8443/a.html"))
        var again = SampleCaptures.capture()
        again.date = SampleCaptures.date.addingTimeInterval(3600)
        await second.record(again)
        let summary = try await second.finish()
        #expect(summary.exchanges == 1 && summary.revisits == 1)
        let records = try WARCReader(path: folder.path + "/archive/" + summary.files[0]).scan().records
        let revisit = try #require(records.last)
        #expect(revisit.type == .revisit)
        #expect(revisit.fields["WARC-Refers-To-Date"] == "2025-12-02T00:00:00.250000Z")
        let history = try String(contentsOfFile: folder.path + "/archive/captures.tsv", encoding: .utf8)
        #expect(history.split(separator: "\n").count == 1 && history.contains("2025-12-02T00:00:00.250000Z"),
                "a revisit keeps the original as the capture to refer to: \(history)")
    }

    @Test func aSpooledPayloadIsWrittenAndItsFileRemoved() async throws {
        let folder = try TemporaryFolderForTests()
        let sink = try ArchiveSink.open(Self.configuration(folder.path))
        let spool = sink.captureOptions.spool.makePath()
        var body = [UInt8](repeating: 0, count: 200_000)
        for index in body.indices { body[index] = UInt8(truncatingIfNeeded: index &* 131) }
        #expect(FileManager.default.createFile(atPath: spool, contents: Data(body)))
        var capture = SampleCaptures.capture(url: "https://localhost:8443/big.bin", body: body,
                                             responseHead: "HTTP/2 200 \r\ncontent-type: application/octet-stream\r\n\r\n")
        capture.payload = .file(path: spool, length: Int64(body.count))
        await sink.record(capture)
        let summary = try await sink.finish()
        #expect(!FileManager.default.fileExists(atPath: spool))
        let records = try WARCReader(path: folder.path + "/archive/" + summary.files[0]).scan(keep: nil).records
        #expect(records.last?.payload == body)
        #expect(records.last?.fields["WARC-Payload-Digest"] == "sha256:" + SHA256Digest.hex(body))
    }

    @Test func openingEmptiesTheSpoolAndFinishesWhatAKilledRunLeft() async throws {
        let folder = try TemporaryFolderForTests()
        let archive = folder.path + "/archive"
        try FileManager.default.createDirectory(atPath: archive + "/.spool", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: archive + "/.spool/.spool-1-1", contents: Data("left over".utf8)))
        let writer = try WARCFileTests.writeSample(into: archive, finish: false)
        try writer.flush()
        let sink = try ArchiveSink.open(Self.configuration(folder.path))
        let summary = try await sink.finish()
        #expect(summary.recovered.count == 1 && summary.exchanges == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: archive + "/.spool").isEmpty)
        #expect(ArchiveFolder.warcFiles(in: archive) == summary.recovered)
    }
}
