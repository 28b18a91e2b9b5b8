/// How the browser is shut off from the network (and whether its own sandbox can run).
///
/// Intercepting requests with the DevTools `Fetch` domain does not contain a page: preconnects,
/// WebSockets and WebRTC open sockets that `Fetch` never sees (C-INTEROP-NOTES). So the browser
/// starts inside a **network namespace of its own** (`unshare --net`), which has no interface
/// but a loopback that is down: every `connect()` and every DNS query it makes fails in the
/// kernel, whatever the page does. The DevTools pipe is an inherited file descriptor, so it
/// keeps working. Measured on this machine with a page that aims a WebSocket, fetch, beacon,
/// image, frame, EventSource, WebRTC (STUN), service worker, `preconnect` and `dns-prefetch` at a
/// local listener: a plain browser connected 8 times (3 TCP, 5 UDP), one with `Fetch` on `*` plus
/// a dead proxy and `--host-resolver-rules` still sent 5 STUN datagrams, and one in its own
/// network namespace 0 times.
public enum BrowserIsolation: Sendable, Equatable {
    /// A user namespace and a network namespace of its own, the browser's sandbox on: the
    /// browser runs as an unprivileged user inside its namespace (`unshare --user --net`, as
    /// the current user, or as root mapped to `nobody`), so Chromium's namespace and seccomp
    /// sandbox works even when mtls-mirror runs as root. The strongest mode, and the default.
    case privateNetworkWithSandbox
    /// Root on a system without user namespaces: a network namespace of its own
    /// (`unshare --net`), and `--no-sandbox`, because Chromium refuses its sandbox as root.
    /// The network is closed all the same; a warning says that the sandbox is off.
    case privateNetworkWithoutSandbox
    /// NO ISOLATION AT ALL: the browser shares the host's network and can reach any host by
    /// itself (only `Fetch` interception stands in the way, which preconnects and WebSockets
    /// escape). FOR TESTS THAT SHOW WHAT THE NAMESPACE PREVENTS; never chosen by mtls-mirror.
    case sharedNetworkForTestsOnly

    /// Whether the browser's own sandbox is used for a process with effective user `uid`
    /// (Chromium refuses it to root, unless root is mapped to another user in a namespace).
    public func usesSandbox(uid: UInt32) -> Bool {
        switch self {
        case .privateNetworkWithSandbox: true
        case .privateNetworkWithoutSandbox: false
        case .sharedNetworkForTestsOnly: uid != 0
        }
    }

    /// The `unshare(1)` arguments that start a program in this isolation, for a process with
    /// effective user `uid` and group `gid` (empty for no isolation).
    func unshareArguments(uid: UInt32, gid: UInt32) -> [String] {
        switch self {
        case .privateNetworkWithSandbox:
            // Root is mapped to nobody inside: Chromium then accepts its sandbox, and the
            // sandbox nests its own namespaces inside ours. Anyone else stays who they are.
            if uid == 0 { return ["--user", "--map-user=65534", "--map-group=65534", "--net"] }
            return ["--user", "--map-user=\(uid)", "--map-group=\(gid)", "--net"]
        case .privateNetworkWithoutSandbox:
            return ["--net"]
        case .sharedNetworkForTestsOnly:
            return []
        }
    }
}
