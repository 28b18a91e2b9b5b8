/// Which HTTP version requests over TLS ask for (ALPN). Plain `http://` is always HTTP/1.1.
public enum HTTPVersionPreference: String, Sendable, CaseIterable {
    /// HTTP/2, until the engine's transfers show a near link (``TransferWindow/isNear``: some
    /// transfer took at most 2 ms) in a run large enough to pay for more connections
    /// (``NearLinkSwitch``); from then on, for the engine's life, new transfers ask for HTTP/1.1, at most
    /// ``CurlMultiEngine/nearConnections`` at a time, each on a connection of its own. HTTP/2 is
    /// what carries hundreds of transfers over a few connections when each waits a round trip;
    /// on a near link a few transfers keep the link busy, and each HTTP/2 request costs more
    /// work at both ends than it saves (an unchanged refresh on loopback: 0.46 against 0.66 s).
    case automatic = "auto"
    /// HTTP/1.1 only.
    case http1 = "1.1"
    /// HTTP/2 when the server offers it (else HTTP/1.1), whatever the link.
    case http2 = "2"
}
