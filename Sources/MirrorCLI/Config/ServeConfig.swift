/// The local server that `serve` runs for all sites.
public struct ServeConfig: Sendable, Equatable {
    /// Address to listen on. Default `127.0.0.1`; other than loopback needs ``allowRemote``.
    public var bind = "127.0.0.1"
    /// TCP port (1…65535). Default 8080.
    public var port = 8080
    /// Allow listening on a non-loopback address. Default `false`.
    public var allowRemote = false
    /// A file holding the access token clients must present (absolute); `nil` for none.
    public var tokenFile: String?
    /// Where to append the access log (absolute); `nil` for none.
    public var accessLog: String?

    /// The defaults: loopback only, port 8080.
    public init() {}

    /// Whether `bind` is a loopback address.
    public var bindsLoopback: Bool {
        let address = bind.lowercased()
        return address == "localhost" || address == "::1" || address == "[::1]" || address.hasPrefix("127.")
    }
}

/// How `serve` treats one site.
public struct SiteServeConfig: Sendable, Equatable {
    /// Fetch missing or stale pages from the origin while serving. Default `false`.
    public var live = false
    /// In live mode, seconds after which a stored page is fetched again; `nil` means never.
    public var maxAge: Double?

    /// The defaults: serve the snapshot only.
    public init() {}
}
