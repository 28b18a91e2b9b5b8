import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorScheduler

/// The units the Debian package installs: one refresh template instance per site, a serve
/// service, and the per-site timer drop-in; checked by content and by systemd's own parser.
@Suite struct PackagedUnitsTests {
    @Test("the refresh template runs one site per instance as a dynamic user, with its secrets as credentials")
    func refreshTemplate() {
        let units = UnitFiles.refreshTemplate()
        let service = units.service
        #expect(service.contains("\nExecStart=/usr/bin/mtls-mirror refresh --config /etc/mtls-mirror/config.json --output /var/lib/mtls-mirror %i\n"))
        #expect(service.contains("\nDynamicUser=yes\nUser=mtls-mirror\n"))
        #expect(service.contains("\nLoadCredential=client-identity:/etc/mtls-mirror/credentials/%i.identity\n"))
        #expect(service.contains("\nLoadCredential=p12-password:/etc/mtls-mirror/credentials/%i.password\n"))
        #expect(service.contains("\nStateDirectory=mtls-mirror\nStateDirectoryMode=0700\n"))
        #expect(service.contains("\nProtectSystem=strict\n") && service.contains("\nUMask=0077\n"))
        #expect(!service.contains("\nEnvironment=") && !service.contains("\nReadWritePaths="))
        #expect(!service.contains("[Install]"), "a oneshot refresh is started by its timer, not enabled")
        #expect(units.timer.contains("\nOnUnitActiveSec=6h\n"))
        #expect(units.timer.contains("\n[Install]\nWantedBy=timers.target\n"))
        #expect(UnitFiles.Credential.path(UnitFiles.Credential.password, site: "intranet")
                == "/run/credentials/mtls-mirror-refresh@intranet.service/p12-password")
    }

    @Test("the serve service reads the same state folder as the same user and is enabled into multi-user.target")
    func serveService() {
        let service = UnitFiles.serveService()
        #expect(service.contains("\nExecStart=/usr/bin/mtls-mirror serve --config /etc/mtls-mirror/config.json --output /var/lib/mtls-mirror\n"))
        #expect(service.contains("\nDynamicUser=yes\nUser=mtls-mirror\n"))
        #expect(service.contains("\nStateDirectory=mtls-mirror\n"))
        #expect(service.contains("\nRestart=on-failure\n"))
        #expect(service.contains("\n[Install]\nWantedBy=multi-user.target\n"))
        #expect(!service.contains("\nLoadCredential="), "a loopback serve needs no secret; the token comes by drop-in")
    }

    @Test("a drop-in sets a site's own interval and jitter, clearing the template's first")
    func timerDropIn() {
        let text = UnitFiles.timerDropIn(site: "wiki", schedule: RefreshSchedule(every: 5400, jitter: 300))
        #expect(text.hasSuffix("[Timer]\nOnUnitActiveSec=\nOnUnitActiveSec=1h 30min\nRandomizedDelaySec=5min\n"))
        #expect(text.contains("/etc/systemd/system/mtls-mirror-refresh@wiki.timer.d/schedule.conf"))
    }

    @Test("paths with spaces or % are quoted for systemd")
    func quoting() {
        var layout = UnitFiles.PackageLayout()
        layout.executable = "/opt/my tools/mtls-mirror"
        layout.configPath = "/etc/50%.json"
        let service = UnitFiles.refreshTemplate(layout: layout).service
        #expect(service.contains("ExecStart=\"/opt/my tools/mtls-mirror\" refresh --config /etc/50%%.json --output /var/lib/mtls-mirror %i\n"))
    }

    @Test("systemd-analyze verify accepts every unit and drop-in without a warning, and catches a broken one")
    func systemdAccepts() throws {
        let analyze = try #require(CommandRunner.tool(named: "systemd-analyze"), "systemd-analyze (package systemd) is missing: run scripts/install-deps.sh")
        let folder = try TemporaryDirectory(prefix: "packaged-units")
        var layout = UnitFiles.PackageLayout()
        layout.executable = "/bin/true"
        let refresh = UnitFiles.refreshTemplate(layout: layout)
        // An instance is what systemd loads; the template's text is the instance's.
        let files = [
            "mtls-mirror-refresh@intranet.service": refresh.service,
            "mtls-mirror-refresh@intranet.timer": refresh.timer,
            "mtls-mirror-serve.service": UnitFiles.serveService(layout: layout),
        ]
        for (name, text) in files { try text.write(toFile: folder.path + "/" + name, atomically: true, encoding: .utf8) }
        let dropIns = folder.path + "/mtls-mirror-refresh@intranet.timer.d"
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
        try UnitFiles.timerDropIn(site: "intranet", schedule: RefreshSchedule(every: 3600))
            .write(toFile: dropIns + "/schedule.conf", atomically: true, encoding: .utf8)
        let runner = CommandRunner(executable: analyze, workingDirectory: folder.url)
        let result = runner.run(["verify", "--man=no"] + files.keys.sorted().map { folder.path + "/" + $0 }, timeout: 60)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // The same check fails on a unit with a bad line, so a pass above means something.
        try (refresh.service + "SetCredential=p12-password:\n").write(toFile: folder.path + "/broken@a.service", atomically: true, encoding: .utf8)
        let broken = runner.run(["verify", "--man=no", folder.path + "/broken@a.service"], timeout: 60)
        #expect(broken.stderr.contains("Invalid syntax"), "\(broken)")
    }
}
