#if os(Linux)
import Glibc
import Testing
@testable import MirrorCore

/// `AllocatorPolicy` against glibc itself: a large block is mapped on its own even after a
/// larger one was freed (glibc's own rule would raise its threshold and take the block from an
/// arena), and freed blocks an arena holds go back on request.
@Suite(.serialized) struct AllocatorPolicyTests {
    @Test func aLargeBlockIsMappedAloneEvenAfterALargerOneWasFreed() throws {
        #expect(AllocatorPolicy.mapLargeBlocksAlone())
        // Freeing an 8 MiB mapped block is what raises glibc's dynamic threshold to 8 MiB.
        let larger = try #require(malloc(8 << 20))
        memset(larger, 1, 8 << 20)
        free(larger)
        for size in [Int(AllocatorPolicy.largeBlock), 1 << 20, 3 << 20] {
            let block = try #require(malloc(size))
            defer { free(block) }
            // A block mapped alone starts 16 bytes (its chunk header) into a fresh page; one
            // from an arena sits wherever the arena's free space was.
            #expect(Int(bitPattern: block) & 0xFFF == 16, "\(size) bytes")
        }
    }

    @Test func freedBlocksHeldByAnArenaGoBack() throws {
        #expect(AllocatorPolicy.mapLargeBlocksAlone())
        // A hundred 100 KiB blocks (below the threshold: from the arena), then a small live
        // block after them, so that freeing them cannot shrink the arena from its top.
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<100 {
            let block = try #require(malloc(100 << 10))
            memset(block, 1, 100 << 10)
            blocks.append(block)
        }
        let fence = try #require(malloc(64))
        defer { free(fence) }
        for block in blocks { free(block) }
        #expect(AllocatorPolicy.returnFreedMemory())
    }
}
#endif
