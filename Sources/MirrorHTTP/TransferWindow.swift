/// How many transfers an engine keeps on its multi handle at once: about twice the number that
/// the rate of completions needs over the shortest transfer time (the bandwidth-delay product
/// counted in requests, sized as BBR sizes its congestion window), and never fewer than
/// ``floor``. The other submitted transfers wait in the engine, in order, and go out as
/// transfers end.
///
/// Why a window and not just the crawl's `--jobs`: every transfer on the handle shares its
/// connection. Against an origin a round trip of 20 ms away, 256 transfers in flight are what
/// keeps the link busy. On a fast link the same 256 are all in flight at once, nginx interleaves
/// their HTTP/2 streams, the documents all arrive near the end, and parsing cannot run beside
/// the receiving. A fixed cap of 32 instead cost the crawl of the PostgreSQL manual 2.4 times
/// its time at 20 ms (figures in Benchmarks/HISTORY.md, session 22).
///
/// The estimate, from what completed transfers show:
/// - **Transfer time**: the least time from a request leaving to its transfer ending, over the
///   last ``durationLifetime`` (a route or a server's load can change). Sharing the link with
///   other transfers only adds to it, so the least is what the link and the server take for one
///   transfer: the round trip, or the pace of a server that rate-limits each response.
/// - **Rate**: transfers completed per second over the last ``rateSamples`` completions. Until
///   that many have completed, ``priorRate``, above what one crawl processes, so that a
///   distant origin gets a wide window at once.
///
/// The window is then `gain × rate × transfer time`. When the window itself holds the rate
/// back, the rate grows with it, and each round of samples can double it; when the origin, the
/// link or the machine's processors hold the rate back, the window settles at twice what keeps
/// them busy. A rate measured while no transfer waited for the window says only how much work
/// there was (a crawl's first pages discover URLs slowly): it may widen the window but never
/// narrows it. Pure logic, no clock: the engine passes monotonic nanoseconds.
struct TransferWindow: Sendable, Equatable {
    /// The fewest transfers in flight, however near the origin: on loopback 16 to 32 kept
    /// receiving and parsing overlapped best.
    static let floor = 16
    /// Completions a second assumed before ``rateSamples`` have been measured.
    static let priorRate = 4_000.0
    /// Window over bandwidth-delay product.
    static let gain = 2.0
    /// Completions the rate is measured over.
    static let rateSamples = 64
    /// How long the shortest transfer time seen stays valid (nanoseconds).
    static let durationLifetime: UInt64 = 10_000_000_000
    /// The shortest transfer time of a near link (nanoseconds): 2 ms, where the prior rate
    /// gives the floor.
    static let nearDuration: UInt64 = 2_000_000

    /// Whether the link is near: some transfer took at most ``nearDuration`` (loopback, the
    /// same LAN). Then few transfers at a time keep it busy, and each one's own cost decides.
    var isNear: Bool { shortest != 0 && shortest <= Self.nearDuration }

    /// The most transfers the engine may have in flight now. Until a transfer has ended it is
    /// ``ceiling``: the first transfers tell what the link is.
    private(set) var limit: Int
    /// The largest the window may become (the callers' own concurrency bounds it anyway).
    let ceiling: Int
    /// The shortest transfer time seen (nanoseconds; 0: none yet), and when it was seen.
    private(set) var shortest: UInt64 = 0
    private var shortestSeenAt: UInt64 = 0
    /// The last completions' times, a ring of ``rateSamples``, and whether transfers were
    /// waiting for the window at each.
    private var completions: [UInt64] = []
    private var demanded: [Bool] = []
    private var next = 0
    /// How many of the ring's completions came while nothing waited for the window.
    private var workLimited = 0
    /// The window has been set from a transfer time at least once.
    private var hasEstimate = false

    init(ceiling: Int = .max) {
        self.ceiling = max(Self.floor, ceiling)
        limit = self.ceiling
    }

    /// Completions a second over the ring, or nil until it is full (or spans no time).
    var rate: Double? {
        guard completions.count == Self.rateSamples else { return nil }
        let newest = completions[(next + Self.rateSamples - 1) % Self.rateSamples]
        let oldest = completions[next]
        guard newest > oldest else { return nil }
        return Double(Self.rateSamples - 1) * 1e9 / Double(newest - oldest)
    }

    /// A transfer ended at `now`. `duration`: the time from its request leaving to `now`, when
    /// it left at all; `waiting`: other transfers were waiting for room in the window.
    mutating func completed(at now: UInt64, duration sample: UInt64?, waiting: Bool) {
        if completions.count < Self.rateSamples {
            completions.append(now)
            demanded.append(waiting)
        } else {
            if !demanded[next] { workLimited -= 1 }
            completions[next] = now
            demanded[next] = waiting
            next = (next + 1) % Self.rateSamples
        }
        if !waiting { workLimited += 1 }
        if let sample, sample > 0, shortest == 0 || sample <= shortest || now &- shortestSeenAt > Self.durationLifetime {
            shortest = sample
            shortestSeenAt = now
        }
        guard shortest > 0 else { return }
        let product = Self.gain * (rate ?? Self.priorRate) * Double(shortest) / 1e9
        let target = product >= Double(ceiling) ? ceiling : max(Self.floor, Int(product.rounded(.up)))
        // The first estimate replaces the initial ceiling whatever it is.
        if target >= limit || workLimited == 0 || !hasEstimate { limit = target }
        hasEstimate = true
    }
}
