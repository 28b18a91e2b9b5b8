import Foundation
import Testing
@testable import MirrorCore

@Suite struct ProcessorsTests {
    @Test(arguments: [
        ("max 100000", nil),
        ("max 100000\n", nil),
        ("200000 100000\n", 2),
        ("150000 100000", 2),
        ("50000 100000", 1),
        ("100000 100000", 1),
        ("0 100000", nil),
        ("100000 0", nil),
        ("", nil),
        ("two halves", nil),
    ] as [(String, Int?)])
    func aCgroupQuotaBecomesWholeProcessorsRoundedUp(line: String, expected: Int?) {
        #expect(Processors.processors(cpuMax: line) == expected)
    }

    @Test func theQuotaLowersTheAffinityButNeverRaisesIt() {
        #expect(Processors.count(affinity: 8, quota: "200000 100000") == 2)
        #expect(Processors.count(affinity: 2, quota: "800000 100000") == 2)
        #expect(Processors.count(affinity: 4, quota: "max 100000") == 4)
        #expect(Processors.count(affinity: 4, quota: nil) == 4)
        #expect(Processors.count(affinity: 0, quota: nil) == 1)
    }

    /// coreutils' `nproc` counts the affinity mask; a cgroup quota can only lower our answer.
    @Test func theProcessCountMatchesNprocUnlessAQuotaLowersIt() throws {
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        let pipe = Pipe()
        nproc.standardOutput = pipe
        try nproc.run()
        nproc.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let affinity = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let quota = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8)
        let limited = quota.flatMap { Processors.processors(cpuMax: $0) }
        #expect(Processors.active == min(affinity, limited ?? affinity))
        #expect(Processors.active >= 1)
    }
}
