import Foundation
import MirrorTestSupport
import Testing

/// A throwaway root with a fresh dpkg database, where the package is installed, run and
/// removed by dpkg itself: `dpkg --root ROOT --force-script-chrootless`, which unpacks into
/// ROOT, records the files in ROOT's database and runs the maintainer scripts with
/// `DPKG_ROOT=ROOT` (the scripts then leave the running system's systemd alone). dpkg's log
/// goes to /dev/null, so the machine's own /var/log/dpkg.log is not touched.
struct ThrowawayRoot {
    let folder: TemporaryDirectory
    var path: String { folder.path + "/root" }
    let dpkg: CommandRunner

    /// - Parameter seeded: copy the machine's dpkg records of these packages into the new
    ///   database, so that Depends: is checked against what is really installed.
    init(seeded: [String]) throws {
        folder = try TemporaryDirectory(prefix: "deb-root")
        let admin = folder.path + "/root/var/lib/dpkg"
        for sub in ["info", "updates", "triggers"] {
            try FileManager.default.createDirectory(atPath: admin + "/" + sub, withIntermediateDirectories: true)
        }
        dpkg = CommandRunner(executable: try DebianPackage.tool("dpkg"))
        var status = ""
        for name in seeded {
            let record = CommandRunner(executable: try DebianPackage.tool("dpkg-query")).run(["-s", name])
            guard record.succeeded else { throw DebianPackage.Failure(message: "\(name) is not installed here: \(record)") }
            status += record.stdout + "\n"
            let qualified = CommandRunner(executable: try DebianPackage.tool("dpkg-query")).run(["-W", "-f=${binary:Package}", name]).stdout
            _ = FileManager.default.createFile(atPath: admin + "/info/\(qualified).list", contents: Data())
        }
        try status.write(toFile: admin + "/status", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: admin + "/available", contents: Data())
    }

    /// Runs dpkg on this root (`-i FILE`, `-r NAME`, `-P NAME`).
    func run(_ arguments: [String]) -> CommandRunner.Result {
        dpkg.run(["--root=\(path)", "--force-script-chrootless", "--force-not-root", "--log=/dev/null"] + arguments, timeout: 300)
    }

    /// Every path in the root, relative, except dpkg's own database.
    func files() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var paths: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next == "var/lib/dpkg" || next.hasPrefix("var/lib/dpkg/") { continue }
            paths.append(next)
        }
        return paths.sorted()
    }
}

@Suite(.serialized) struct DebianInstallTests {
    @Test("dpkg refuses the package where its Depends: are not installed")
    func dependenciesAreChecked() throws {
        let package = try DebianPackage.get()
        let root = try ThrowawayRoot(seeded: [])
        let refused = root.run(["-i", package.deb.path])
        #expect(refused.exitCode != 0, "\(refused)")
        #expect(refused.stderr.contains("depends on libcurl4"), "\(refused)")
    }

    @Test("installed into a fresh root, it runs --version, the demo and its completions, then purges to nothing")
    func installRunPurge() throws {
        let package = try DebianPackage.get()
        let root = try ThrowawayRoot(seeded: package.packages("Depends"))
        let installed = root.run(["-i", package.deb.path])
        try #require(installed.succeeded, "\(installed)")
        #expect(installed.stdout.contains("Setting up mtls-mirror (\(package.control["Version"] ?? "?"))"), "\(installed)")
        let status = root.run(["-s", "mtls-mirror"])
        #expect(status.stdout.contains("Status: install ok installed"), "\(status)")

        let binary = URL(fileURLWithPath: root.path + "/usr/bin/mtls-mirror")
        let work = try TemporaryDirectory(prefix: "deb-run")
        let tool = CommandRunner(executable: binary, workingDirectory: work.url)
        let version = tool.run(["--version"])
        #expect(version.succeeded && version.stdout == "mtls-mirror \(package.control["Version"] ?? "?")\n", "\(version)")
        let demo = tool.run(["demo", "--exit-after", "3", "--port", "0", "-o", work.path + "/out"], timeout: 120)
        #expect(demo.succeeded, "\(demo)")
        #expect(demo.stdout.contains("Open http://127.0.0.1:"), "\(demo)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/out/demo/current/index.html"))

        // The installed completion script, run by bash with the installed binary on PATH.
        let bash = CommandRunner(executable: try DebianPackage.tool("bash"), workingDirectory: work.url)
        let completed = bash.run(["--norc", "--noprofile", "-c", """
            source "$1/usr/share/bash-completion/completions/mtls-mirror"
            COMP_WORDS=(mtls-mirror mi); COMP_CWORD=1; _mtls_mirror; echo "${COMPREPLY[*]}"
            COMP_WORDS=(mtls-mirror refresh --config "$1/usr/share/doc/mtls-mirror/examples/config.json" ''); COMP_CWORD=4
            _mtls_mirror; echo "${COMPREPLY[*]}"
            """, "bash", root.path], environment: ["PATH": root.path + "/usr/bin:/usr/bin:/bin"])
        #expect(completed.stdout == "mirror\nintranet\n", "\(completed)")
        // The installed man page renders.
        let man = CommandRunner(executable: try DebianPackage.tool("man")).run(
            ["-l", root.path + "/usr/share/man/man1/mtls-mirror.1.gz"], environment: ["MANWIDTH": "100", "PAGER": "cat"])
        #expect(man.succeeded && man.stdout.contains("completions"), "\(man)")
        try verifyUnits(in: root)

        let purged = root.run(["-P", "mtls-mirror"])
        #expect(purged.succeeded, "\(purged)")
        #expect(root.files() == ["var", "var/lib"], "left behind: \(root.files())")
        #expect(!root.run(["-s", "mtls-mirror"]).stdout.contains("Status: install"))
    }

    @Test("remove keeps the operator's config, secrets and mirrors; purge also deletes the mirrors and the units' enablement")
    func removeThenPurge() throws {
        let package = try DebianPackage.get()
        let root = try ThrowawayRoot(seeded: package.packages("Depends"))
        try #require(root.run(["-i", package.deb.path]).succeeded)
        // What an operator and systemd add: the config, a secret, an enabled timer with its
        // drop-in, and the dynamic user's state folder holding a mirror.
        let base = root.path
        let manager = FileManager.default
        try Data("{}".utf8).write(to: URL(fileURLWithPath: base + "/etc/mtls-mirror/config.json"))
        try Data("p12".utf8).write(to: URL(fileURLWithPath: base + "/etc/mtls-mirror/credentials/intranet.identity"))
        try manager.createDirectory(atPath: base + "/etc/systemd/system/timers.target.wants", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: base + "/etc/systemd/system/timers.target.wants/mtls-mirror-refresh@intranet.timer",
                                       withDestinationPath: "/lib/systemd/system/mtls-mirror-refresh@.timer")
        try manager.createSymbolicLink(atPath: base + "/etc/systemd/system/timers.target.wants/other.timer", withDestinationPath: "/lib/systemd/system/other.timer")
        try manager.createDirectory(atPath: base + "/var/lib/private/mtls-mirror/intranet/current", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: base + "/var/lib/mtls-mirror", withDestinationPath: "private/mtls-mirror")

        let removed = root.run(["-r", "mtls-mirror"])
        #expect(removed.succeeded, "\(removed)")
        #expect(!manager.fileExists(atPath: base + "/usr/bin/mtls-mirror"))
        #expect(!manager.fileExists(atPath: base + "/lib/systemd/system/mtls-mirror-serve.service"))
        for kept in ["/etc/mtls-mirror/config.json", "/etc/mtls-mirror/credentials/intranet.identity",
                     "/var/lib/private/mtls-mirror/intranet/current"] {
            #expect(manager.fileExists(atPath: base + kept), "\(kept) is gone after remove")
        }

        let purged = root.run(["-P", "mtls-mirror"])
        #expect(purged.succeeded, "\(purged)")
        #expect(root.files() == [
            "etc", "etc/mtls-mirror", "etc/mtls-mirror/config.json", "etc/mtls-mirror/credentials",
            "etc/mtls-mirror/credentials/intranet.identity", "etc/systemd", "etc/systemd/system",
            "etc/systemd/system/timers.target.wants", "etc/systemd/system/timers.target.wants/other.timer",
            "var", "var/lib", "var/lib/private",
        ], "after purge: \(root.files())")
    }

    /// systemd's parser accepts the installed unit files (an instance of the template, with
    /// the installed binary's path, since the root is not a whole system for `--root`).
    private func verifyUnits(in root: ThrowawayRoot) throws {
        let analyze = try DebianPackage.tool("systemd-analyze")
        let units = try TemporaryDirectory(prefix: "deb-units")
        let system = root.path + "/lib/systemd/system/"
        for (source, instance) in [("mtls-mirror-refresh@.service", "mtls-mirror-refresh@intranet.service"),
                                   ("mtls-mirror-refresh@.timer", "mtls-mirror-refresh@intranet.timer"),
                                   ("mtls-mirror-serve.service", "mtls-mirror-serve.service")] {
            let text = try String(contentsOfFile: system + source, encoding: .utf8)
            #expect(text.contains("/usr/bin/mtls-mirror") || source.hasSuffix(".timer"))
            try text.replacingOccurrences(of: "/usr/bin/mtls-mirror", with: root.path + "/usr/bin/mtls-mirror")
                .write(toFile: units.path + "/" + instance, atomically: true, encoding: .utf8)
        }
        let verified = CommandRunner(executable: analyze, workingDirectory: units.url).run(
            ["verify", "--man=no"] + ["mtls-mirror-refresh@intranet.service", "mtls-mirror-refresh@intranet.timer", "mtls-mirror-serve.service"]
                .map { units.path + "/" + $0 })
        #expect(verified.succeeded && verified.stderr.isEmpty, "\(verified)")
    }
}
