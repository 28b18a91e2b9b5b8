import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorScheduler

/// The pieces of `schedule --print-kubernetes`: cron schedules, deadlines, memory budgets,
/// object names and the YAML writer.
@Suite struct KubernetesPartsTests {
    static let schedules: [(every: Double, fields: String, used: Double)] = [
        (60, "* * * * *", 60), (30, "* * * * *", 60), (15 * 60, "*/15 * * * *", 900), (45 * 60, "*/30 * * * *", 1800),
        (3600, "0 * * * *", 3600), (5 * 3600, "0 */4 * * *", 14_400), (6 * 3600, "0 */6 * * *", 21_600),
        (86_400, "0 0 * * *", 86_400), (2 * 86_400, "0 0 * * *", 86_400), (7 * 86_400, "0 0 * * 0", 604_800),
        (30 * 86_400, "0 0 * * 0", 604_800),
    ]

    @Test("an interval cron cannot repeat at runs at the longest one it can that is not longer", arguments: schedules)
    func cronSchedule(every: Double, fields: String, used: Double) {
        let schedule = CronSchedule(every: every)
        #expect(schedule.fields == fields)
        #expect(schedule.every == used)
        #expect(schedule.wasShortened == (used != every))
        #expect(schedule.every <= max(every, 60))
    }

    @Test("the deadline is the run budget plus a minute, or else the interval or one request's worst case, whichever is longer")
    func deadlines() {
        let budget = RunDeadline(runBudget: 1800, every: 21_600, requestTimeout: 600, retries: 2)
        #expect(budget.seconds == 1860 && budget.reason.contains("run budget"))
        let interval = RunDeadline(runBudget: nil, every: 21_600, requestTimeout: 600, retries: 2)
        #expect(interval.seconds == 21_600 && interval.reason.contains("no run budget"))
        let request = RunDeadline(runBudget: nil, every: 900, requestTimeout: 600, retries: 2)
        #expect(request.seconds == 1800 && request.reason.contains("totalTimeout"))
    }

    @Test("memory: the measured peak plus a quarter, rounded up to 32 MiB, limit twice that; more transfers cost more")
    func memory() {
        let standard = MemoryBudget.refresh(jobs: 256)
        #expect(standard.peakMiB == 88.1 && standard.requestMiB == 128 && standard.limitMiB == 256)
        let wide = MemoryBudget.refresh(jobs: 1024)
        #expect(wide.requestMiB == 160 && wide.limitMiB == 320)
        #expect(MemoryBudget.refresh(jobs: 16) == standard)
        let serve = MemoryBudget.serve(live: false)
        #expect(serve.requestMiB == 32 && serve.limitMiB == 64)
        #expect(MemoryBudget.serve(live: true) == standard)
    }

    static let names: [(site: String, name: String)] = [
        ("intranet", "mtls-mirror-intranet"),
        ("docs-2", "mtls-mirror-docs-2"),
        ("Wiki", "mtls-mirror-wiki-" + String(SHA256Hex.of("Wiki").prefix(8))),
        ("a_b", "mtls-mirror-a-b-" + String(SHA256Hex.of("a_b").prefix(8))),
        ("a.b", "mtls-mirror-a-b-" + String(SHA256Hex.of("a.b").prefix(8))),
        ("-x-", "mtls-mirror-x-" + String(SHA256Hex.of("-x-").prefix(8))),
    ]

    @Test("object names are DNS-1123 labels of at most 52 characters; a changed name carries a hash of the site", arguments: names)
    func objectNames(site: String, name: String) {
        let made = KubernetesName.site(site)
        #expect(made == name)
        #expect(made.range(of: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", options: .regularExpression) != nil)
    }

    @Test("a 64-character site name fits in 52, and two long names stay apart")
    func longNames() {
        let a = KubernetesName.site(String(repeating: "a", count: 63) + "1")
        let b = KubernetesName.site(String(repeating: "a", count: 63) + "2")
        #expect(a.count <= 52 && b.count <= 52 && a != b)
        #expect(a.range(of: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", options: .regularExpression) != nil)
    }

    static let texts = [
        "plain", "yes", "no", "on", "null", "~", "0440", "1e3", "- dash", "# hash", "a: b", "quote \" and \\ backslash",
        "tab\there", "line\nbreak", "two lines\n", "keep\n\n", "\n leading newline", " leading space\nsecond", "trailing space \nx",
        "ünïcødé ✓", "bell \u{07}", "{\"json\": [1, 2]}\n", "", "  ",
    ]

    @Test("strings of every shape read back unchanged through PyYAML (the YAML 1.1 parser kubectl's reads like)")
    func yamlRoundTrip() throws {
        let value = ManifestValue.map([
            .init("strings", .list(Self.texts.map(ManifestValue.string))),
            .init("block", .map(Self.texts.enumerated().map { .init("k\($0.offset)", .string($0.element)) })),
            .init("numbers", .list([.int(0), .int(288), .int(-1)])),
            .init("flags", .list([.bool(true), .bool(false)])),
            .init("empty", .map([])), .init("none", .list([])),
            .init("nested", .list([.map([.init("a", .int(1)), .init("b", .list([.map([.init("c", .string("d\ne\n"))])]))]), .list([.string("x")])])),
            .init("1st", .string("key starting with a digit")), .init("true", .string("reserved key")),
        ])
        let folder = try TemporaryDirectory(prefix: "yaml")
        let file = folder.path + "/value.yaml"
        try value.yaml().write(toFile: file, atomically: true, encoding: .utf8)
        let python = PythonTools.environment(of: "kubernetes-validate").appendingPathComponent("bin/python")
        let read = CommandRunner(executable: python).run(
            ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))", file])
        try #require(read.succeeded, "PyYAML comes with kubernetes-validate (scripts/install-deps.sh): \(read)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(parsed["strings"] as? [String] == Self.texts, "\(value.yaml())")
        let block = try #require(parsed["block"] as? [String: String])
        for (index, text) in Self.texts.enumerated() { #expect(block["k\(index)"] == text, "k\(index): \(text.debugDescription)") }
        #expect(parsed["numbers"] as? [Int] == [0, 288, -1])
        #expect(parsed["flags"] as? [Bool] == [true, false])
        #expect((parsed["empty"] as? [String: Any])?.isEmpty == true && (parsed["none"] as? [Any])?.isEmpty == true)
        let nested = try #require(parsed["nested"] as? [Any])
        #expect(((nested[0] as? [String: Any])?["b"] as? [[String: String]])?.first?["c"] == "d\ne\n")
        #expect(nested[1] as? [String] == ["x"])
        #expect(parsed["1st"] as? String == "key starting with a digit" && parsed["true"] as? String == "reserved key")
    }
}

/// SHA-256 as hex, for the expected names.
enum SHA256Hex {
    static func of(_ text: String) -> String {
        let folder = try? TemporaryDirectory(prefix: "sha")
        let path = (folder?.path ?? "/tmp") + "/t"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let result = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/sha256sum")).run([path])
        return String(result.stdout.prefix(64))
    }
}
