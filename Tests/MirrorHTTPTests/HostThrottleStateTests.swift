import Foundation
import MirrorHTTP
import Testing

/// The per-host politeness state machine: pacing, back-off after 429/503, and AIMD concurrency.
@Suite struct HostThrottleStateTests {
    func politeness(wait: Double = 0, rate: Double? = nil, random: Bool = false, concurrency: Int = 8) -> Politeness {
        var politeness = Politeness()
        politeness.wait = wait
        politeness.hostRequestsPerSecond = rate
        politeness.randomWait = random
        politeness.maximumConcurrency = concurrency
        return politeness
    }

    @Test(arguments: [
        // wait, host rate, Crawl-delay -> the interval between starts: the largest wins
        (0.0, nil, nil, 0.0), (0.5, nil, nil, 0.5), (0.0, 4.0, nil, 0.25), (0.1, 4.0, nil, 0.25),
        (0.1, 4.0, 2.0, 2.0), (3.0, 4.0, 2.0, 3.0),
    ] as [(Double, Double?, Double?, Double)])
    func theIntervalIsTheLargestOfWaitRateAndCrawlDelay(_ wait: Double, _ rate: Double?, _ delay: Double?, _ expected: Double) {
        #expect(HostThrottleState.interval(politeness(wait: wait, rate: rate), crawlDelay: delay) == expected)
    }

    @Test func requestsArePacedByTheInterval() {
        var state = HostThrottleState(politeness: politeness(wait: 0.5))
        #expect(state.request(now: 10, random: 0.3) == .start)
        let released = state.sent(ticket: state.sendTicket, now: 10.001)
        #expect(released)
        #expect(state.request(now: 10.1, random: 0.3) == .waitUntil(10.501))
        #expect(state.request(now: 10.501, random: 0.3) == .start)
        #expect(state.inFlight == 2)
    }

    /// The interval counts from the moment a paced request leaves, not from its start: the first
    /// request's connection takes a handshake, the next one goes out at once on it, and a server
    /// limiting to the same rate (nginx `limit_req`) saw them closer than the interval.
    @Test func theIntervalCountsFromWhenTheRequestWasSent() {
        var state = HostThrottleState(politeness: politeness(rate: 5))
        #expect(state.request(now: 0, random: 0) == .start)
        let first = state.sendTicket
        // Its handshake is under way: the next request waits for it to leave.
        #expect(state.request(now: 0.25, random: 0) == .waitForSend)
        #expect(state.inFlight == 1)
        // A notice about another ticket changes nothing.
        let stale1 = state.sent(ticket: first &+ 1, now: 0.3)
        #expect(!stale1)
        #expect(state.request(now: 0.3, random: 0) == .waitForSend)
        let released = state.sent(ticket: first, now: 0.3)
        #expect(released)
        #expect(state.request(now: 0.35, random: 0) == .waitUntil(0.5))
        #expect(state.request(now: 0.5, random: 0) == .start)
        let second = state.sendTicket
        #expect(second != first)
        // The first request's late notice does not release the second.
        let stale2 = state.sent(ticket: first, now: 0.55)
        #expect(!stale2)
        #expect(state.request(now: 0.8, random: 0) == .waitForSend)
        // The second ends before the notice of its sending arrives: the interval counts from its end.
        state.finished(.success, paced: (second, true), now: 0.6)
        #expect(state.request(now: 0.65, random: 0) == .waitUntil(0.8))
        // Its notice, arriving after that, changes nothing.
        let stale3 = state.sent(ticket: second, now: 0.62)
        #expect(!stale3)
        #expect(state.nextStart == 0.8)
    }

    @Test func aPacedRequestThatEndsUnsentNoLongerHoldsTheNext() {
        var state = HostThrottleState(politeness: politeness(wait: 1))
        #expect(state.request(now: 0, random: 0) == .start)
        let ticket = state.sendTicket
        #expect(state.request(now: 0.2, random: 0) == .waitForSend)
        // Its connection failed: nothing reached the server, and the pacing from its start stands.
        state.finished(.failure, paced: (ticket, false), now: 0.3)
        #expect(!state.awaitingSend)
        #expect(state.request(now: 0.5, random: 0) == .waitUntil(1))
        #expect(state.request(now: 1, random: 0) == .start)
        // One abandoned before it was sent releases the next as well.
        let next = state.sendTicket
        #expect(state.request(now: 1.1, random: 0) == .waitForSend)
        _ = state.abandoned(ticket: next)
        #expect(state.request(now: 2, random: 0) == .start)
    }

    @Test func anUnpacedHostNeverWaitsForASend() {
        var state = HostThrottleState(politeness: politeness(concurrency: 4))
        for _ in 0..<4 { #expect(state.request(now: 0, random: 0) == .start) }
        #expect(!state.awaitingSend)
        #expect(state.sendTicket == 0)
    }

    @Test(arguments: [0.0, 0.5, 0.999])
    func randomWaitStaysBetweenHalfAndOneAndAHalfTimes(_ random: Double) {
        var state = HostThrottleState(politeness: politeness(wait: 2, random: true))
        #expect(state.request(now: 0, random: random) == .start)
        #expect(state.nextStart == 2 * (0.5 + random))
        #expect(state.nextStart >= 1 && state.nextStart < 3)
    }

    @Test func aRetryAfterHoldsEveryRequestOfTheHostForTheTimeItAsked() {
        var state = HostThrottleState(politeness: politeness())
        #expect(state.request(now: 0, random: 0) == .start)
        state.finished(.shedding(retryAfter: 3), now: 1)
        #expect(state.request(now: 1.5, random: 0) == .waitUntil(4))
        #expect(state.request(now: 3.99, random: 0) == .waitUntil(4))
        #expect(state.request(now: 4, random: 0) == .start)
    }

    @Test func withoutRetryAfterTheBackOffDoublesUpToItsCap() {
        var configuration = politeness(concurrency: 1)
        configuration.baseBackoff = 1
        configuration.maximumBackoff = 5
        var state = HostThrottleState(politeness: configuration)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<5 {
            guard case .start = state.request(now: now, random: 0) else { Issue.record("not started"); return }
            state.finished(.shedding(retryAfter: nil), now: now)
            waits.append(state.backoffUntil - now)
            now = state.backoffUntil
        }
        #expect(waits == [1, 2, 4, 5, 5])
        _ = state.request(now: now, random: 0)
        state.finished(.success, now: now)
        #expect(state.consecutiveShedding == 0)
    }

    @Test func sheddingHalvesTheConcurrencyAndSuccessesRaiseItAgain() {
        var state = HostThrottleState(politeness: politeness(concurrency: 8))
        for _ in 0..<8 { #expect(state.request(now: 0, random: 0) == .start) }
        #expect(state.request(now: 0, random: 0) == .waitForSlot)
        state.finished(.shedding(retryAfter: 0), now: 0)
        #expect(state.limit == 4)
        state.finished(.shedding(retryAfter: 0), now: 0)
        #expect(state.limit == 2)
        // 6 still in flight: no slot until they finish.
        #expect(state.request(now: 1, random: 0) == .waitForSlot)
        for _ in 0..<6 { state.finished(.success, now: 1) }
        #expect(state.inFlight == 0)
        // Every 2 × limit successes in a row raise the limit by one, up to the maximum.
        var now = 2.0
        while state.limit < 8, now < 1000 {
            if case .start = state.request(now: now, random: 0) { state.finished(.success, now: now) }
            now += 1
        }
        #expect(state.limit == 8)
        #expect(now < 100)
    }

    @Test func aFailureWithoutResponseNeitherBacksOffNorCounts() {
        var state = HostThrottleState(politeness: politeness(concurrency: 2))
        _ = state.request(now: 0, random: 0)
        let free = state.finished(.failure, now: 0)
        #expect(free == 2 && state.limit == 2 && state.backoffUntil == 0)
    }

    @Test func theThrottleShellWaitsAndCountsSheddingPerHost() async {
        var configuration = politeness(wait: 0.2)
        configuration.maximumConcurrency = 1
        let throttle = HostThrottle(politeness: configuration)
        let start = Date()
        guard case .startedPaced(let ticket) = await throttle.acquire(host: "a.example", port: 443) else {
            Issue.record("a paced host's request did not start paced")
            return
        }
        await throttle.sent(host: "a.example", port: 443, ticket: ticket)
        await throttle.finish(host: "a.example", port: 443, status: 429, retryAfter: 0.3, bytes: 0, paced: (ticket, true))
        guard case .startedPaced(let second) = await throttle.acquire(host: "a.example", port: 443) else {
            Issue.record("the second request did not start paced")
            return
        }
        #expect(Date().timeIntervalSince(start) >= 0.29)
        // The next waits until the second is sent (here, 0.1 s later), then the interval.
        let sender = Task {
            try? await Task.sleep(nanoseconds: 100_000_000)
            await throttle.sent(host: "a.example", port: 443, ticket: second)
            await throttle.finish(host: "a.example", port: 443, status: 200, retryAfter: nil, bytes: 0, paced: (second, true))
        }
        let third = Date()
        #expect(await throttle.acquire(host: "a.example", port: 443) != .cancelled)
        #expect(Date().timeIntervalSince(third) >= 0.29)
        await sender.value
        // Another host is not held back by a.example's back-off.
        let other = Date()
        #expect(await throttle.acquire(host: "b.example", port: 443) != .cancelled)
        #expect(Date().timeIntervalSince(other) < 0.2)
        #expect(await throttle.sheddingResponses == ["a.example:443": 1])
        await throttle.setCrawlDelay(1.5, host: "b.example", port: 443)
        #expect(await throttle.interval(host: "b.example", port: 443) == 1.5)
    }

    /// The throttle draws a random number (a getrandom system call each) only for --random-wait.
    @Test(arguments: [false, true])
    func randomNumbersAreDrawnOnlyForRandomWait(_ randomWait: Bool) async {
        let draws = Draws()
        let throttle = HostThrottle(politeness: politeness(random: randomWait), random: { draws.draw() })
        for _ in 0..<5 {
            #expect(await throttle.acquire(host: "a.example", port: 443) == .started)
            await throttle.finish(host: "a.example", port: 443, status: 200, retryAfter: nil, bytes: 0)
        }
        #expect(draws.count == (randomWait ? 5 : 0))
    }

    final class Draws: @unchecked Sendable {
        private let lock = NSLock()
        private var drawn = 0
        var count: Int { lock.withLock { drawn } }
        func draw() -> Double { lock.withLock { drawn += 1 }; return 0.5 }
    }
}

/// The total byte rate: every transfer pays from one budget.
@Suite struct ByteRateLimiterTests {
    final class Clock: @unchecked Sendable {
        var now: Double = 100
    }

    @Test func aBurstIsFreeAndTheRestWaitsForTheRate() {
        let clock = Clock()
        let limiter = ByteRateLimiter(bytesPerSecond: 1000, burst: 0.25, clock: { clock.now })
        #expect(limiter.delay(for: 200) == 0)           // within the quarter second's allowance
        #expect(abs(limiter.delay(for: 300) - 0.25) < 1e-9)  // 500 bytes: 0.5 s of budget, 0.25 s allowed
        // Two "transfers" at once pay from the same budget: the waits add up.
        #expect(abs(limiter.delay(for: 1000) - 1.25) < 1e-9)
        clock.now += 10  // idle: the budget refills only up to the allowance
        #expect(limiter.delay(for: 250) == 0)
        #expect(abs(limiter.delay(for: 1000) - 1.0) < 1e-9)
    }
}
