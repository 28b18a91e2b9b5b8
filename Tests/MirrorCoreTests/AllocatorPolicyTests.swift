#if os(Linux)
import Glibc
import Testing
@testable import MirrorCore

/// `AllocatorPolicy` against glibc itself: a large block is mapped on its own even after a
/// larger one was freed (glibc's own rule would raise its threshold and take the block from an
/// arena), and freed blocks an arena holds go back on request.
@Suite struct AllocatorPolicyTests {
    /// In a process of its own: a long-lived test process's arenas may hold free chunks large
    /// enough for the blocks, which glibc hands out before it maps anything.
    @Test func aLargeBlockIsMappedAloneEvenAfterALargerOneWasFreed() async {
        await #expect(processExitsWith: .success) {
            guard AllocatorPolicy.mapLargeBlocksAlone() else { exit(2) }
            // Freeing an 8 MiB mapped block is what raises glibc's own threshold to 8 MiB.
            guard let larger = malloc(8 << 20) else { exit(3) }
            memset(larger, 1, 8 << 20)
            free(larger)
            for size in [Int(AllocatorPolicy.largeBlock), 1 << 20, 3 << 20] {
                guard let block = malloc(size) else { exit(3) }
                memset(block, 1, size)
                // A block mapped alone starts 16 bytes (its chunk header) into a fresh page;
                // one from an arena sits wherever the arena's free space began.
                let mapped = Int(bitPattern: block) & 0xFFF == 16
                free(block)
                if !mapped { exit(1) }
            }
            exit(0)
        }
    }

    @Test func freedBlocksHeldByAnArenaGoBack() throws {
        #expect(AllocatorPolicy.mapLargeBlocksAlone())
        // A hundred 100 KiB blocks (below the threshold: from an arena); every other one is
        // freed, so that the holes, between live blocks, cannot shrink the arena from its top.
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<100 {
            let block = try #require(malloc(100 << 10))
            memset(block, 1, 100 << 10)
            blocks.append(block)
        }
        defer { for (index, block) in blocks.enumerated() where index % 2 == 1 { free(block) } }
        for (index, block) in blocks.enumerated() where index % 2 == 0 { free(block) }
        // 5,000 KiB are free: more than is worth returning.
        #expect(AllocatorPolicy.returnFreedMemory())
    }

    /// In a process of its own, whose arenas hold nothing else free.
    @Test func aFewFreedBlocksAreLeftWhereTheyAre() async {
        await #expect(processExitsWith: .success) {
            guard AllocatorPolicy.mapLargeBlocksAlone() else { exit(2) }
            var blocks: [UnsafeMutableRawPointer] = []
            for _ in 0..<20 {
                guard let block = malloc(100 << 10) else { exit(3) }
                memset(block, 1, 100 << 10)
                blocks.append(block)
            }
            for (index, block) in blocks.enumerated() where index % 2 == 0 { free(block) }
            // 1,000 KiB free: below what is worth returning, left; with no minimum, returned.
            if AllocatorPolicy.returnFreedMemory() { exit(1) }
            if !AllocatorPolicy.returnFreedMemory(above: 0) { exit(4) }
            exit(0)
        }
    }
}
#endif
