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
