import Foundation
import MirrorScheduler
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// `schedule --print-systemd --template`: the packaged units, from the same generator as the
/// package build uses, with a drop-in per scheduled site when a config is named.
@Suite struct ScheduleTemplateTests {
    @Test("without --config: the three packaged units, each after its marker line, and no config is read")
    func templatesOnly() async throws {
        let out = try CapturedOutput()
        let parsed = try ArgumentParser.parse(["--print-systemd", "--template"], spec: ScheduleCommand.spec)
        let code = try await ScheduleCommand(arguments: parsed, logger: .silent, runner: nil, output: out.descriptor).run()
        #expect(code == .success)
        let markers = out.text.split(separator: "\n").filter { $0.hasPrefix("# ---- ") }
        #expect(markers == ["# ---- mtls-mirror-refresh@.service ----", "# ---- mtls-mirror-refresh@.timer ----",
                            "# ---- mtls-mirror-serve.service ----"])
        #expect(out.text.contains(UnitFiles.refreshTemplate().service))
        #expect(out.text.contains(UnitFiles.serveService()))
    }

    @Test("with --config: the config's path in ExecStart= and a timer drop-in for each site with refresh.every")
    func dropInsPerSite() async throws {
        let fixture = try ScheduleFixture()
        let out = try CapturedOutput()
        let code = try await fixture.command(["--print-systemd", "--template", "--executable", "/usr/local/bin/mtls-mirror"], output: out.descriptor).run()
        #expect(code == .success)
        let text = out.text
        #expect(text.contains("ExecStart=/usr/local/bin/mtls-mirror refresh --config \(fixture.configPath) --output /var/lib/mtls-mirror %i\n"))
        #expect(text.contains("# ---- mtls-mirror-refresh@intranet.timer.d/schedule.conf ----\n"))
        #expect(text.contains("OnUnitActiveSec=\nOnUnitActiveSec=6h\nRandomizedDelaySec=10min\n"))
        #expect(text.contains("# ---- mtls-mirror-refresh@odd.timer.d/schedule.conf ----\n"))
        #expect(text.contains("OnUnitActiveSec=\nOnUnitActiveSec=5h\nRandomizedDelaySec=0\n"))
        #expect(!text.contains("manual.timer"))
    }

    @Test("options that do not apply to the packaged units are refused", arguments: [
        ["--template"],
        ["--print-systemd", "--template", "--user", "mirror"],
        ["--print-systemd", "--template", "--credential", "/etc/p"],
        ["--print-systemd", "--template", "-o", "/srv"],
        ["--print-systemd", "--template", "--site", "intranet"],
    ])
    func refusals(arguments: [String]) async throws {
        let parsed = try ArgumentParser.parse(arguments, spec: ScheduleCommand.spec)
        await #expect(throws: UsageError.self) {
            try await ScheduleCommand(arguments: parsed, logger: .silent, runner: nil, output: -1).run()
        }
    }
}
