import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorScheduler

@Suite struct RunHistoryTests {
    func record(_ index: Int, outcome: RunOutcome = .success) -> RunRecord {
        RunRecord(site: "intranet", startedAt: at(Double(index) * 3600), finishedAt: at(Double(index) * 3600 + 42.5),
                  outcome: outcome, exitCode: outcome == .success ? 0 : 7,
                  counts: .init(added: index, changed: 2, removed: 1, unchanged: 100, failed: 0), bytes: 4096,
                  error: outcome == .failed ? "connect to intranet.example:443 failed" : nil,
                  snapshot: outcome == .failed ? nil : "20270115T080000Z-\(index)")
    }

    @Test func aLineIsWhatJSONEncoderWroteAndReadsBack() throws {
        let history = RunHistory(siteDirectory: "/nonexistent")
        for record in [record(1), record(2, outcome: .failed)] {
            let line = history.encode(record)
            #expect(!line.contains(0x0A), "one line")
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(RunHistory.formatDate(date))
            }
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let theirs = try encoder.encode(record)
            #expect(String(decoding: line, as: UTF8.self) == String(decoding: theirs, as: UTF8.self),
                    "the same text: keys sorted, no spaces, milliseconds")
            let ours = try JSONSerialization.jsonObject(with: Data(line)) as? NSDictionary
            let reference = try JSONSerialization.jsonObject(with: theirs) as? NSDictionary
            #expect(ours != nil && ours == reference)
        }
    }

    @Test func appendsAndLoadsTheNewest() throws {
        let folder = try TemporaryDirectory()
        let history = RunHistory(siteDirectory: folder.path)
        #expect(history.load(last: 5).isEmpty)
        for index in 0..<5 { try history.append(record(index, outcome: index == 3 ? .failed : .success)) }
        let last = history.load(last: 2)
        #expect(last == [record(3, outcome: .failed), record(4)])
        #expect(history.load().count == 5)
        #expect(last[0].durationSeconds == 42.5)
        #expect(last[0].error == "connect to intranet.example:443 failed")

        var info = stat()
        #expect(lstat(history.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let lines = try String(contentsOfFile: history.path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].contains("\"outcome\":\"success\""))
        #expect(lines[0].contains("\"startedAt\":\"2027-01-15T08:00:00.000Z\""))
    }

    @Test func isBoundedToTheNewestLines() throws {
        let folder = try TemporaryDirectory()
        let history = RunHistory(siteDirectory: folder.path, maximumRecords: 10)
        for index in 0..<25 { try history.append(record(index)) }
        let all = history.load()
        #expect(all.count == 10)
        #expect(all.first == record(15))
        #expect(all.last == record(24))
        var info = stat()
        #expect(lstat(history.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func skipsATornLine() throws {
        let folder = try TemporaryDirectory()
        let history = RunHistory(siteDirectory: folder.path)
        try history.append(record(1))
        let handle = try #require(FileHandle(forWritingAtPath: history.path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"site\":\"intranet\",\"startedAt\":\"20".utf8))
        try handle.close()
        #expect(history.load() == [record(1)])
        try history.append(record(2))
        #expect(history.load() == [record(1), record(2)])
    }

    @Test func failsOnAnUnwritableFolder() {
        let history = RunHistory(siteDirectory: "/nonexistent-mtls-mirror-dir")
        #expect {
            try history.append(record(1))
        } throws: { error in
            guard case RunHistoryError.io(_, let path, let code) = error else { return false }
            return path == "/nonexistent-mtls-mirror-dir/history.jsonl" && code == ENOENT
        }
    }

    @Test func summaryLine() {
        #expect(record(3).summaryLine == "intranet: success (exit 0) in 42.5 s, +3 ~2 -1 =100 !0, 4 KB, snapshot 20270115T080000Z-3")
        #expect(record(3, outcome: .failed).summaryLine.hasSuffix(": connect to intranet.example:443 failed"))
    }
}
