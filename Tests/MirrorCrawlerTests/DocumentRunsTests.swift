import MirrorCore
import MirrorStore
import Testing
@testable import MirrorCrawler

/// `DocumentRuns`: the rewrite's index of the documents spill, one offset per run of 32.
struct DocumentRunsTests {
    /// Records of many sizes (a body longer than a one-byte length too) come back in order,
    /// run by run, with their ids; the last run is short.
    @Test func recordsComeBackRunByRun() throws {
        let spill = SpillFile.inMemory()
        var runs = DocumentRuns()
        let bodies = (0..<70).map { i in [UInt8](repeating: UInt8(i), count: i * 7 % 300) }
        for (i, body) in bodies.enumerated() {
            runs.add(at: spill.append(DocumentRuns.record(id: UInt32(1_000 + i), body: body)))
        }
        #expect(runs.count == 70)
        #expect(runs.runCount == 3)
        #expect((0..<3).map(runs.size(of:)) == [32, 32, 6])
        var seen: [(UInt32, [UInt8])] = []
        for run in 0..<runs.runCount {
            runs.forEach(inRun: run, spill: spill) { record in
                guard let record else { Issue.record("a record could not be read"); return }
                seen.append((record.id, Array(record.bytes)))
            }
        }
        #expect(seen.map(\.0) == (0..<70).map { UInt32(1_000 + $0) })
        #expect(seen.map(\.1) == bodies)
        #expect(runs.runCount * 8 < runs.count * 16 / 4, "an offset per run, not an entry per document")
    }

    /// A header that cannot be read loses the rest of its run (handed as nil), never another
    /// run's documents.
    @Test func aDamagedHeaderLosesOnlyTheRestOfItsRun() throws {
        let spill = SpillFile.inMemory()
        var runs = DocumentRuns()
        for i in 0..<40 {
            let body = i == 3 ? [] : Array("document \(i)".utf8)
            // Document 3's header claims more bytes than the spill holds.
            let record = i == 3 ? [0x03, 0xFF, 0xFF, 0xFF, 0x7F] : DocumentRuns.record(id: UInt32(i), body: body)
            runs.add(at: spill.append(record))
        }
        var first: [UInt32?] = []
        runs.forEach(inRun: 0, spill: spill) { first.append($0?.id) }
        #expect(first.count == 32)
        #expect(Array(first.prefix(3)) == [0, 1, 2])
        #expect(first.dropFirst(3).allSatisfy { $0 == nil })
        var second: [UInt32?] = []
        runs.forEach(inRun: 1, spill: spill) { second.append($0?.id) }
        #expect(second == (32..<40).map { UInt32($0) })
    }
}
