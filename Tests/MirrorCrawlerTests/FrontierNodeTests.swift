import Testing
@testable import MirrorCrawler

/// `Frontier.Node`: one URL's frontier state in 12 bytes.
struct FrontierNodeTests {
    /// Every state, with and without the requisite bit, at small and the largest depths, comes
    /// back as set, each field independent of the others; a depth beyond the largest is kept
    /// as the largest, a negative one as 0.
    @Test func fieldsShareAWordWithoutDisturbingEachOther() {
        #expect(MemoryLayout<Frontier.Node>.stride == 12)
        let states: [Frontier.State] = [.unknown, .queued, .inFlight, .done, .failed, .redirectTarget]
        for state in states {
            for isRequisite in [false, true] {
                for depth: Int32 in [0, 1, 20, 65_536, Frontier.Node.maximumDepth] {
                    var node = Frontier.Node(state: state, isRequisite: isRequisite, chain: 7, growth: 9, depth: depth,
                                             referrer: 0xFFFF_FFFF)
                    #expect(node.state == state && node.isRequisite == isRequisite && node.depth == depth)
                    #expect(node.chain == 7 && node.growth == 9 && node.referrer == 0xFFFF_FFFF)
                    node.state = .done
                    #expect(node.isRequisite == isRequisite && node.depth == depth)
                    node.isRequisite.toggle()
                    #expect(node.state == .done && node.depth == depth)
                    node.depth = 3
                    #expect(node.state == .done && node.isRequisite != isRequisite && node.depth == 3)
                }
            }
        }
        var node = Frontier.Node(state: .queued, isRequisite: true, chain: 0, growth: 0, depth: .max, referrer: 0)
        #expect(node.depth == Frontier.Node.maximumDepth && node.state == .queued && node.isRequisite)
        node.depth = -5
        #expect(node.depth == 0 && node.state == .queued && node.isRequisite)
    }
}
