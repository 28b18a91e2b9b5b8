import Foundation
import Testing
@testable import MirrorStore

/// A site folder with real published snapshots, made through the store's own begin/publish.
struct SnapshotFixture {
    let folder: TemporaryFolder
    let store: SnapshotStore
    var ids: [String] = []

    init() throws {
        folder = try TemporaryFolder()
        store = try SnapshotStore(siteDirectory: folder.path + "/site")
    }

    /// Publishes a snapshot dated `hour` hours after 2027-01-15T00:00Z, optionally with a report.
    @discardableResult
    mutating func publish(hour: Int, report: String? = nil) throws -> String {
        let staging = try store.begin(now: Date(timeIntervalSince1970: 1_799_971_200 + Double(hour) * 3600))
        try staging.fileSystem.write(Array("<p>\(hour)</p>".utf8), to: "index.html")
        if let report { try staging.fileSystem.write(Array(report.utf8), to: "_mirror/report.json") }
        try store.publish(staging)
        ids.append(staging.id)
        return staging.id
    }

    var snapshotsPath: String { store.siteDirectory + "/snapshots" }
    func currentIndex() throws -> String { try String(contentsOfFile: store.siteDirectory + "/current/index.html", encoding: .utf8) }
}

@Suite struct SnapshotMaintenanceTests {
    @Test func cleanLeftoversRemovesOnlyPartialFolders() throws {
        var fixture = try SnapshotFixture()
        let kept = try fixture.publish(hour: 1)
        let killed = try fixture.store.begin()
        try killed.fileSystem.write(Array("half".utf8), to: "deep/er/page.html")
        let other = try fixture.store.begin()
        #expect(fixture.store.leftoverIDs().count == 2)
        let removed = try fixture.store.cleanLeftovers()
        #expect(Set(removed) == [".partial-" + killed.id, ".partial-" + other.id])
        #expect(fixture.store.leftoverIDs().isEmpty)
        #expect(fixture.store.snapshotIDs() == [kept])
        #expect(try fixture.currentIndex() == "<p>1</p>")
        #expect(try fixture.store.cleanLeftovers().isEmpty)
    }

    @Test func cleanLeftoversDoesNotFollowALinkOutOfTheSite() throws {
        let fixture = try SnapshotFixture()
        let outside = fixture.folder.path + "/precious"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside + "/file"))
        try FileManager.default.createSymbolicLink(atPath: fixture.snapshotsPath + "/.partial-evil", withDestinationPath: outside)
        try fixture.store.cleanLeftovers()
        #expect(FileManager.default.fileExists(atPath: outside + "/file"))
        #expect(!FileManager.default.fileExists(atPath: fixture.snapshotsPath + "/.partial-evil"))
    }

    @Test func retainKeepsTheNewestAndNeverTheCurrent() throws {
        var fixture = try SnapshotFixture()
        for hour in 1...6 { try fixture.publish(hour: hour) }
        let ids = fixture.ids
        #expect(try fixture.store.retain(keep: 3) == Array(ids[0..<3]))
        #expect(fixture.store.snapshotIDs() == Array(ids[3...]))
        // After a rollback to the oldest remaining one, it counts as one of those kept.
        try fixture.store.rollback(to: ids[3])
        #expect(try fixture.store.retain(keep: 2) == [ids[4]])
        #expect(fixture.store.snapshotIDs() == [ids[3], ids[5]])
        #expect(fixture.store.currentID == ids[3])
        #expect(try fixture.currentIndex() == "<p>4</p>")
        // keep 0 still keeps the current snapshot.
        #expect(try fixture.store.retain(keep: 0) == [ids[5]])
        #expect(fixture.store.snapshotIDs() == [ids[3]])
    }

    struct PlanCase: Sendable, CustomStringConvertible {
        var ids: [String], current: String?, keep: Int, deleted: [String]
        var description: String { "\(ids) current \(current ?? "-") keep \(keep)" }
    }

    @Test(arguments: [
        PlanCase(ids: [], current: nil, keep: 3, deleted: []),
        PlanCase(ids: ["a", "b"], current: "b", keep: 5, deleted: []),
        PlanCase(ids: ["c", "a", "b"], current: "c", keep: 1, deleted: ["a", "b"]),
        PlanCase(ids: ["a", "b", "c", "d"], current: "a", keep: 2, deleted: ["b", "c"]),
        PlanCase(ids: ["a", "b", "c"], current: nil, keep: 2, deleted: ["a"]),
        PlanCase(ids: ["a", "b", "c"], current: "gone", keep: 1, deleted: ["a", "b"]),
    ])
    func retentionPlan(_ c: PlanCase) {
        #expect(SnapshotStore.retentionPlan(ids: c.ids, current: c.current, keep: c.keep) == c.deleted)
    }

    @Test func listShowsDatesCurrentAndReportCounts() throws {
        var fixture = try SnapshotFixture()
        let first = try fixture.publish(hour: 2, report: """
            {"site": "s", "pages": 12, "fetched": 30, "failed": 1, "bytes": 123456,
             "startedAt": "2027-01-15T02:00:00Z", "finishedAt": "2027-01-15T02:01:05Z", "errors": []}
            """)
        let second = try fixture.publish(hour: 5)
        try FileManager.default.createDirectory(atPath: fixture.snapshotsPath + "/.partial-x", withIntermediateDirectories: true)
        let list = fixture.store.list()
        #expect(list.map(\.id) == [first, second])
        #expect(list[0] == SnapshotInfo(id: first, date: Date(timeIntervalSince1970: 1_799_971_200 + 7200), isCurrent: false,
                                        pages: 12, fetched: 30, bytes: 123_456, failed: 1,
                                        fetchedAt: Date(timeIntervalSince1970: 1_799_971_200 + 7265)))
        #expect(list[1] == SnapshotInfo(id: second, date: Date(timeIntervalSince1970: 1_799_971_200 + 5 * 3600), isCurrent: true))
    }

    @Test(arguments: ["", "not json", "{\"pages\": \"many\"}"])
    func aBrokenReportIsListedWithoutCounts(report: String) throws {
        var fixture = try SnapshotFixture()
        let id = try fixture.publish(hour: 1, report: report)
        let list = fixture.store.list()
        #expect(list.count == 1)
        #expect(list.first?.id == id)
        #expect(list.first?.pages == nil)
        #expect(list.first?.isCurrent == true)
    }

    @Test(arguments: [("20270115T080000Z-1a2b", 1_800_000_000.0), ("20270115T080000Z", 1_800_000_000)])
    func datesFromIDs(id: String, seconds: Double) {
        #expect(SnapshotInfo.date(fromID: id) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["manual-copy", "2027-01-15", ""])
    func foreignIDsHaveNoDate(id: String) {
        #expect(SnapshotInfo.date(fromID: id) == nil)
    }
}

@Suite struct SnapshotRollbackTests {
    @Test func rollbackWithoutIDGoesToThePreviousOne() throws {
        var fixture = try SnapshotFixture()
        for hour in 1...3 { try fixture.publish(hour: hour) }
        #expect(try fixture.store.rollback(to: nil) == fixture.ids[1])
        #expect(try fixture.currentIndex() == "<p>2</p>")
        #expect(try fixture.store.rollback(to: nil) == fixture.ids[0])
        #expect(try fixture.currentIndex() == "<p>1</p>")
        #expect(throws: SnapshotError.nothingToRollBackTo(siteDirectory: fixture.store.siteDirectory, current: fixture.ids[0])) {
            try fixture.store.rollback(to: nil)
        }
        #expect(fixture.store.currentID == fixture.ids[0])
        // Forward again by id.
        #expect(try fixture.store.rollback(to: fixture.ids[2]) == fixture.ids[2])
        #expect(try fixture.currentIndex() == "<p>3</p>")
        // The link stays relative, and no temporary link is left behind.
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: fixture.store.siteDirectory + "/current")
        #expect(target == "snapshots/" + fixture.ids[2])
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.store.siteDirectory)
        #expect(!names.contains { $0.hasPrefix(".current-") })
    }

    @Test func unknownIDsAreRefused() throws {
        var fixture = try SnapshotFixture()
        try fixture.publish(hour: 1)
        let partial = try fixture.store.begin()
        for bad in ["nope", ".partial-" + partial.id, "../../etc"] {
            #expect(throws: SnapshotError.noSuchSnapshot(siteDirectory: fixture.store.siteDirectory, id: bad, available: fixture.ids)) {
                try fixture.store.rollback(to: bad)
            }
        }
        #expect(fixture.store.currentID == fixture.ids[0])
    }

    @Test func anEmptySiteHasNothingToRollBackTo() throws {
        let fixture = try SnapshotFixture()
        let error = #expect(throws: SnapshotError.self) { try fixture.store.rollback(to: nil) }
        #expect(error == .nothingToRollBackTo(siteDirectory: fixture.store.siteDirectory, current: nil))
        #expect(error?.summary.contains("no current snapshot") == true)
        #expect(error?.category == .usage)
    }
}
