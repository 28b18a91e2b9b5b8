/// The command line and environment of the browser: a pure value, so that what the browser
/// is allowed to do can be read (and tested) in one place.
public struct BrowserLaunch: Sendable, Equatable {
    /// The real Chromium binary on Debian. `/usr/bin/chromium` is a shell wrapper that sources
    /// `/etc/chromium.d/` (extensions, API keys) and is not used.
    public static let debianChromium = "/usr/lib/chromium/chromium"
    /// `unshare(1)` from util-linux.
    public static let unshare = "/usr/bin/unshare"

    /// The browser binary.
    public var executable: String
    /// How the browser is shut off from the network.
    public var isolation: BrowserIsolation
    /// Where the profile folder is made (nil: the system's temporary folder).
    public var profileParent: String?

    /// A launch of `executable` in `isolation`, its profile under `profileParent`.
    public init(executable: String = BrowserLaunch.debianChromium, isolation: BrowserIsolation = .privateNetworkWithSandbox,
                profileParent: String? = nil) {
        self.executable = executable
        self.isolation = isolation
        self.profileParent = profileParent
    }

    /// The browser's flags. Besides the network namespace (``BrowserIsolation``), which is what
    /// contains a page, they close the network a second time from inside (a proxy that does not
    /// exist, a resolver that resolves nothing, WebRTC without UDP) and turn off everything that
    /// would run without a page asking: background networking, component and safe-browsing
    /// updates, sync, metrics, translation, prefetch and DNS prefetch. Site isolation is off so
    /// that a page's frames live in the page's own target, where every request is paused.
    static func flags(profile: ProfileFolder, sandbox: Bool) -> [String] {
        var flags = [
            "--headless=new", "--remote-debugging-pipe", "--user-data-dir=" + profile.userDataDirectory,
            "--no-first-run", "--no-default-browser-check", "--no-pings", "--noerrdialogs",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
            "--disable-extensions", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
            "--disable-crash-reporter", "--disable-breakpad", "--metrics-recording-only", "--disable-gpu", "--mute-audio",
            "--disable-dev-shm-usage", "--password-store=basic", "--use-mock-keychain", "--disable-notifications",
            "--disable-hang-monitor", "--disable-prompt-on-repost",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>", "--host-resolver-rules=MAP * ~NOTFOUND",
            "--dns-prefetch-disable", "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
            "--disable-site-isolation-trials",
            "--disable-features=site-per-process,IsolateOrigins,Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,"
                + "NetworkPrediction,SpeculationRulesPrefetchProxy,Prerender2,InterestFeedContentSuggestions,AutofillServerCommunication,"
                + "CertificateTransparencyComponentUpdater,PrivacySandboxSettings4,BackForwardCache,HttpsUpgrades",
            "--blink-settings=dnsPrefetchingEnabled=false",
            "--window-size=1280,1024",
        ]
        if !sandbox { flags.append("--no-sandbox") }
        flags.append("about:blank")
        return flags
    }

    /// The program to spawn and its full argument vector (`argv[0]` included): `unshare` with
    /// the namespace flags in front of the browser, or the browser alone without isolation.
    func commandLine(profile: ProfileFolder, uid: UInt32, gid: UInt32) -> (program: String, arguments: [String]) {
        let browser = [executable] + Self.flags(profile: profile, sandbox: isolation.usesSandbox(uid: uid))
        let unshareFlags = isolation.unshareArguments(uid: uid, gid: gid)
        if unshareFlags.isEmpty { return (executable, browser) }
        return (Self.unshare, [Self.unshare] + unshareFlags + ["--"] + browser)
    }

    /// The browser's whole environment, built from nothing: none of mtls-mirror's own variables
    /// (a password in `P12_PASSWORD`, say) reaches the browser.
    static func environment(profile: ProfileFolder) -> [String] {
        [
            "PATH=/usr/local/bin:/usr/bin:/bin",
            "HOME=" + profile.path,
            "XDG_CONFIG_HOME=" + profile.configDirectory,
            "XDG_CACHE_HOME=" + profile.cacheDirectory,
            "TMPDIR=" + profile.temporaryDirectory,
            "LANG=C.UTF-8",
            // No session bus: Chromium's D-Bus clients give up at once instead of retrying.
            "DBUS_SESSION_BUS_ADDRESS=disabled:",
        ]
    }
}
