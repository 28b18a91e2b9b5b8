/// Memory requests and limits for the pods, from measured peak resident memory.
///
/// The figures: the 50 MB Python documentation, whose pages of up to 2.5 MB are parsed several
/// at a time, peaked at 86.3–88.4 MiB RSS, the largest of the benchmarks (BENCHMARKS.md; a
/// generated site of 104,000 URLs peaks near 70 MiB, since a crawl's memory hardly grows with
/// the number of URLs, issue #27), at the default 256 transfers, each of which costs about
/// 36–45 KiB more in flight (README);
/// `serve` peaked at 25.3 MiB under 200 concurrent keep-alive connections (measured for
/// issue #28 with wrk on the demo mirror). The request is the peak plus a quarter, rounded up
/// to 32 MiB; the limit is twice the request, so a site somewhat larger than the benchmarks
/// still fits, and one far larger is stopped by the kernel (the refresh fails, the current
/// snapshot stays) instead of starving its node.
public struct MemoryBudget: Sendable, Equatable {
    /// `resources.requests.memory`, in MiB.
    public let requestMiB: Int
    /// `resources.limits.memory`, in MiB.
    public let limitMiB: Int
    /// The measured peak the budget starts from, in MiB.
    public let peakMiB: Double

    /// Peak RSS of the largest measured mirror, at the default 256 transfers.
    public static let crawlPeakMiB = 88.1
    /// The default number of transfers the crawl figure was measured at.
    public static let measuredJobs = 256
    /// Memory per transfer in flight, in KiB.
    public static let perTransferKiB = 36.0
    /// Peak RSS of `serve` under load.
    public static let servePeakMiB = 25.3

    /// A budget from a peak: request = peak × 1.25 rounded up to 32 MiB, limit = 2 × request.
    public init(peakMiB: Double) {
        self.peakMiB = peakMiB
        requestMiB = Int((peakMiB * 1.25 / 32).rounded(.up)) * 32
        limitMiB = requestMiB * 2
    }

    /// The budget of one refresh with `jobs` transfers at most.
    public static func refresh(jobs: Int) -> MemoryBudget {
        MemoryBudget(peakMiB: crawlPeakMiB + Double(max(0, jobs - measuredJobs)) * perTransferKiB / 1024)
    }

    /// The budget of `serve`; with live fetch on, a page fetch and rewrite as in a crawl.
    public static func serve(live: Bool) -> MemoryBudget {
        live ? refresh(jobs: measuredJobs) : MemoryBudget(peakMiB: servePeakMiB)
    }
}
