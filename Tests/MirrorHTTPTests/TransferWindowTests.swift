import Testing
@testable import MirrorHTTP

/// The engine's window of transfers in flight, from the completions it has seen.
@Suite("Transfer window")
struct TransferWindowTests {
    static let ms: UInt64 = 1_000_000

    /// Feeds `count` completions `spacing` apart from `start`, each `duration` long.
    static func feed(_ window: inout TransferWindow, count: Int, from start: UInt64, spacing: UInt64, duration: UInt64,
                     waiting: Bool) -> UInt64 {
        var now = start
        for _ in 0..<count {
            now += spacing
            window.completed(at: now, duration: duration, waiting: waiting)
        }
        return now
    }

    @Test("until a transfer has ended, and after one that never left, the window is the ceiling")
    func ceilingUntilATransferTimeIsKnown() {
        var window = TransferWindow(ceiling: 256)
        #expect(window.limit == 256)
        window.completed(at: 5 * Self.ms, duration: nil, waiting: false)
        #expect(window.limit == 256)
        #expect(TransferWindow().limit == Int.max)
        #expect(TransferWindow(ceiling: 4).limit == TransferWindow.floor)
    }

    @Test("the first transfer time sizes the window from the prior rate: the floor on loopback, wide far away",
          arguments: [(UInt64(300_000), 16), (2 * ms, 16), (5 * ms, 40), (20 * ms, 160), (100 * ms, 256), (400 * ms, 256)])
    func firstEstimate(duration: UInt64, expected: Int) {
        var window = TransferWindow(ceiling: 256)
        window.completed(at: duration, duration: duration, waiting: false)
        #expect(window.limit == expected)
        #expect(window.shortest == duration)
    }

    @Test("a measured rate narrows the window only when transfers were waiting for it")
    func narrowsOnlyWhenTheWindowWasFull() {
        // 20 ms transfers completing every millisecond: 1,000 a second, 40 in the window.
        var full = TransferWindow(ceiling: 256)
        _ = Self.feed(&full, count: 64, from: 0, spacing: Self.ms, duration: 20 * Self.ms, waiting: true)
        #expect(full.rate.map { Int($0.rounded()) } == 1_000)
        #expect(full.limit == 40)
        // The same completions with nothing waiting: the crawl had no more work, and the
        // window stays where the prior put it.
        var idle = TransferWindow(ceiling: 256)
        _ = Self.feed(&idle, count: 64, from: 0, spacing: Self.ms, duration: 20 * Self.ms, waiting: false)
        #expect(idle.limit == 160)
        // One completion without waiting in the ring is enough to keep it.
        var mixed = TransferWindow(ceiling: 256)
        let now = Self.feed(&mixed, count: 63, from: 0, spacing: Self.ms, duration: 20 * Self.ms, waiting: true)
        mixed.completed(at: now + Self.ms, duration: 20 * Self.ms, waiting: false)
        #expect(mixed.limit == 160)
        // Once that completion has left the ring, the full window narrows.
        _ = Self.feed(&mixed, count: 64, from: now + Self.ms, spacing: Self.ms, duration: 20 * Self.ms, waiting: true)
        #expect(mixed.limit == 40)
    }

    @Test("when the window holds the rate back, each round of samples widens it")
    func widensWhileTheRateFollowsTheWindow() {
        var window = TransferWindow(ceiling: 1_024)
        // Narrowed to 40 first (1,000 a second of 20 ms transfers).
        var now = Self.feed(&window, count: 64, from: 0, spacing: Self.ms, duration: 20 * Self.ms, waiting: true)
        #expect(window.limit == 40)
        // 40 in flight for 20 ms each complete 2,000 a second: the window doubles, and again.
        now = Self.feed(&window, count: 64, from: now, spacing: Self.ms / 2, duration: 20 * Self.ms, waiting: true)
        #expect(window.limit == 80)
        _ = Self.feed(&window, count: 64, from: now, spacing: Self.ms / 4, duration: 20 * Self.ms, waiting: true)
        #expect(window.limit == 160)
    }

    @Test("the window never leaves the floor and the ceiling")
    func boundedByFloorAndCeiling() {
        var near = TransferWindow(ceiling: 256)
        _ = Self.feed(&near, count: 200, from: 0, spacing: Self.ms / 10, duration: Self.ms / 10, waiting: true)
        #expect(near.limit == TransferWindow.floor)
        var slow = TransferWindow(ceiling: 100)
        _ = Self.feed(&slow, count: 200, from: 0, spacing: Self.ms, duration: 2_000 * Self.ms, waiting: true)
        #expect(slow.limit == 100)
    }

    @Test("the shortest transfer time is forgotten after its lifetime")
    func shortestExpires() {
        var window = TransferWindow(ceiling: 1_024)
        window.completed(at: Self.ms, duration: Self.ms, waiting: false)
        window.completed(at: 2 * Self.ms, duration: 50 * Self.ms, waiting: false)
        #expect(window.shortest == Self.ms)
        let later = 2 * Self.ms + TransferWindow.durationLifetime + Self.ms
        window.completed(at: later, duration: 50 * Self.ms, waiting: false)
        #expect(window.shortest == 50 * Self.ms)
        #expect(window.limit == 400)
    }
}
