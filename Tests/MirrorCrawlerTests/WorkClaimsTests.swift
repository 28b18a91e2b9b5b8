import Foundation
import Testing
@testable import MirrorCrawler

/// ``WorkClaims``: the rewrite phase's workers take documents in batches of neighbours.
struct WorkClaimsTests {
    /// Several threads claiming at once get every index exactly once, each batch a run of
    /// consecutive indices of the configured size (the last one shorter).
    @Test func everyIndexIsHandedOutOnceInConsecutiveBatches() async {
        for (count, batch, workers) in [(0, 32, 2), (1, 32, 2), (31, 32, 3), (32, 32, 2), (1_000, 32, 4), (10_001, 7, 8)] {
            let claims = WorkClaims(count: count, batch: batch)
            let taken = await withTaskGroup(of: [[Int]].self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        var runs: [[Int]] = []
                        var current: [Int] = []
                        for index in claims.indices() {
                            if let last = current.last, index != last + 1 {
                                runs.append(current)
                                current = []
                            }
                            current.append(index)
                        }
                        if !current.isEmpty { runs.append(current) }
                        return runs
                    }
                }
                var all: [[Int]] = []
                for await runs in group { all += runs }
                return all
            }
            let flat = taken.flatMap { $0 }
            #expect(flat.count == count, "count \(count), batch \(batch)")
            #expect(Set(flat) == Set(0..<count), "count \(count), batch \(batch)")
            // A worker's indices come in runs that start at a batch boundary.
            #expect(taken.allSatisfy { $0.first! % batch == 0 }, "count \(count), batch \(batch)")
        }
    }

    /// Once every index is out, claiming again keeps saying so.
    @Test func exhaustedClaimsStayExhausted() {
        let claims = WorkClaims(count: 3, batch: 2)
        #expect(claims.claim() == 0..<2)
        #expect(claims.claim() == 2..<3)
        #expect(claims.claim() == nil)
        #expect(claims.claim() == nil)
        #expect(Array(claims.indices()).isEmpty)
    }
}
