/// When an engine under ``HTTPVersionPreference/automatic`` moves its new transfers to HTTP/1.1:
/// once the link is near (``TransferWindow/isNear``) and the run is large enough for the move
/// to pay.
///
/// The move opens up to ``CurlMultiEngine/nearConnections`` connections beside the HTTP/2 one,
/// each a TLS handshake at both ends (resumed, but still a key exchange), and it saves a little
/// work on every request after it. Over a few thousand requests the saving wins (an unchanged
/// refresh of 4,695 URLs on loopback: 0.46 s against 0.66 s on HTTP/2). A small site is over
/// before it does: mirrors of Git's manual (221 URLs), libxml2's (154), Sphinx's (176) and
/// node's API (134) took 6–13 ms less when they stayed on their one HTTP/2 connection, 5–7 %
/// of their time, and wget2 uses two. So the move waits until the engine has finished
/// ``minimumTransfers`` transfers, or its client announced at least that many
/// (``HTTPClient/expectTransfers(_:)``: a refresh knows its previous snapshot's URLs, and moves
/// at once, as before; a crawl announces the URLs it has found each time their number doubles,
/// so a larger site moves as soon as its first pages have linked 256 URLs). Pure logic; the
/// engine thread owns it.
struct NearLinkSwitch: Sendable, Equatable {
    /// Transfers finished or announced before a near link moves to HTTP/1.1.
    static let minimumTransfers = 256

    /// Transfers the engine has finished.
    private(set) var finished = 0
    /// The most transfers the engine's client announced.
    private(set) var expected = 0
    /// Whether new transfers ask for HTTP/1.1: once set, for the engine's life (going back
    /// would open HTTP/2 connections beside the HTTP/1.1 ones).
    private(set) var isOn = false

    /// Notes a finished transfer.
    mutating func transferFinished() { finished += 1 }

    /// Notes that the engine's client expects `count` transfers in all (the largest count wins).
    mutating func expect(_ count: Int) { expected = max(expected, count) }

    /// Decides, from what the transfer window shows of the link, whether new transfers ask for
    /// HTTP/1.1 from now on; returns ``isOn``.
    @discardableResult
    mutating func update(isNear: Bool) -> Bool {
        if !isOn, isNear, max(finished, expected) >= Self.minimumTransfers { isOn = true }
        return isOn
    }
}
