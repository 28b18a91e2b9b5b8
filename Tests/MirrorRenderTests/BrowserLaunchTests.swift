#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorRender

@Suite struct BrowserLaunchTests {
    let profile = ProfileFolder(path: "/tmp/mtls-mirror-browser-abc123")

    @Test(arguments: [
        (BrowserIsolation.privateNetworkWithSandbox, UInt32(0), ["--user", "--map-user=65534", "--map-group=65534", "--net"], false),
        (.privateNetworkWithSandbox, 1000, ["--user", "--map-user=1000", "--map-group=1000", "--net"], false),
        (.privateNetworkWithoutSandbox, 0, ["--net"], true),
    ])
    func startsTheBrowserInItsNamespaces(isolation: BrowserIsolation, uid: UInt32, unshare: [String], noSandbox: Bool) {
        let launch = BrowserLaunch(isolation: isolation)
        let (program, arguments) = launch.commandLine(profile: profile, uid: uid, gid: uid)
        #expect(program == BrowserLaunch.unshare)
        #expect(Array(arguments.prefix(unshare.count + 2)) == [BrowserLaunch.unshare] + unshare + ["--"])
        #expect(arguments[unshare.count + 2] == BrowserLaunch.debianChromium, "the real binary, not the /usr/bin wrapper")
        #expect(arguments.contains("--no-sandbox") == noSandbox)
        #expect(arguments.contains("--remote-debugging-pipe"))
        #expect(!arguments.contains { $0.hasPrefix("--remote-debugging-port") })
        #expect(arguments.contains("--user-data-dir=/tmp/mtls-mirror-browser-abc123/profile"))
        #expect(arguments.contains("--host-resolver-rules=MAP * ~NOTFOUND"))
        #expect(arguments.contains("--proxy-server=http://127.0.0.1:9"))
    }

    @Test func theEnvironmentIsBuiltFromNothing() {
        let environment = BrowserLaunch.environment(profile: profile)
        let names = environment.map { String($0.prefix { $0 != "=" }) }
        #expect(Set(names) == ["PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "TMPDIR", "LANG", "DBUS_SESSION_BUS_ADDRESS"])
        #expect(environment.contains("XDG_CONFIG_HOME=/tmp/mtls-mirror-browser-abc123/config"))
        #expect(environment.contains("HOME=/tmp/mtls-mirror-browser-abc123"))
    }

    @Test func withoutIsolationTheBrowserRunsAlone() {
        let (program, arguments) = BrowserLaunch(isolation: .sharedNetworkForTestsOnly).commandLine(profile: profile, uid: 0, gid: 0)
        #expect(program == BrowserLaunch.debianChromium)
        #expect(arguments.contains("--no-sandbox"), "root without a user namespace")
    }

    @Test func theProbeChoosesTheSandboxedNamespaceHere() throws {
        let choice = try IsolationProbe.choose()
        #expect(choice.isolation == .privateNetworkWithSandbox)
        #expect(throws: RenderError.self) { try IsolationProbe.choose(unshare: "/nonexistent/unshare") }
    }
}

/// The fallback when user namespaces are unavailable, with an `unshare` that refuses `--user`.
@Suite struct IsolationFallbackTests {
    /// A stand-in for util-linux's `unshare`: fails for a user namespace, runs the program otherwise.
    static func fakeUnshare() throws -> (MirrorTestSupport.TemporaryDirectory, String) {
        let folder = try MirrorTestSupport.TemporaryDirectory(prefix: "fake-unshare")
        let path = folder.path + "/unshare"
        try """
            #!/bin/sh
            case "$1" in --user) echo "unshare: unshare failed: Operation not permitted" >&2; exit 1 ;; esac
            while [ "$1" != "--" ]; do shift; done
            shift
            exec "$@"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (folder, path)
    }

    @Test func rootWithoutUserNamespacesRunsUnsandboxedAndIsWarned() throws {
        let (folder, unshare) = try Self.fakeUnshare()
        defer { withExtendedLifetime(folder) {} }
        let choice = try IsolationProbe.choose(uid: 0, gid: 0, unshare: unshare)
        #expect(choice.isolation == .privateNetworkWithoutSandbox)
        #expect(choice.warning?.contains("--no-sandbox") == true && choice.warning?.contains("Operation not permitted") == true,
                "\(choice.warning ?? "no warning")")
    }

    @Test func anOrdinaryUserWithoutUserNamespacesGetsNoBrowser() throws {
        let (folder, unshare) = try Self.fakeUnshare()
        defer { withExtendedLifetime(folder) {} }
        #expect(throws: RenderError.self) { try IsolationProbe.choose(uid: 1000, gid: 1000, unshare: unshare) }
    }
}
