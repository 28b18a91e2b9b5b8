import Testing
@testable import MirrorHTTP

/// When `.automatic` moves a near link's new transfers to HTTP/1.1.
@Suite("Near-link switch")
struct NearLinkSwitchTests {
    @Test("a small run stays on HTTP/2 however near the link")
    func aSmallRunStays() {
        var near = NearLinkSwitch()
        for _ in 0..<(NearLinkSwitch.minimumTransfers - 1) {
            near.transferFinished()
            let moved = near.update(isNear: true)
            #expect(!moved)
        }
        #expect(!near.isOn)
    }

    @Test("after 256 finished transfers a near link moves, and stays moved")
    func aLargeRunMoves() {
        var near = NearLinkSwitch()
        for _ in 0..<NearLinkSwitch.minimumTransfers { near.transferFinished() }
        let moved = near.update(isNear: true)
        #expect(moved)
        // A later far reading does not move it back: HTTP/2 connections would open beside
        // the HTTP/1.1 ones.
        let stillMoved = near.update(isNear: false)
        #expect(stillMoved)
    }

    @Test("a far link never moves, however many transfers")
    func aFarLinkStays() {
        var near = NearLinkSwitch()
        near.expect(100_000)
        for _ in 0..<1_000 { near.transferFinished() }
        let moved = near.update(isNear: false)
        #expect(!moved)
    }

    @Test("a run announced large moves at its first near reading")
    func anAnnouncedRunMovesAtOnce() {
        var near = NearLinkSwitch()
        near.expect(NearLinkSwitch.minimumTransfers - 1)
        let movedForASmallRun = near.update(isNear: true)
        #expect(!movedForASmallRun)
        near.expect(10)
        #expect(near.expected == NearLinkSwitch.minimumTransfers - 1, "the largest announcement counts")
        near.expect(4_695)
        let moved = near.update(isNear: true)
        #expect(moved)
        #expect(near.finished == 0)
    }
}
