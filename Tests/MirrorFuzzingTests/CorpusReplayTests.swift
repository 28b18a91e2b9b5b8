import Foundation
import MirrorFuzzing
import Testing

/// Every committed corpus file, replayed through its harness: the corpora are regression tests
/// of the normal test run, not only seeds for scripts/fuzz.sh.
@Suite struct CorpusReplayTests {
    static func corpusFolder(_ target: FuzzTarget) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpora/\(target.rawValue)")
    }

    static func corpusFiles(_ target: FuzzTarget) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpusFolder(target), includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func corpusHoldsNoViolation(target: FuzzTarget) throws {
        let files = try Self.corpusFiles(target)
        #expect(files.count >= 10, "corpus of \(target.rawValue) has only \(files.count) files")
        for file in files {
            let data = try [UInt8](Data(contentsOf: file))
            let violation = target.run(data)
            #expect(violation == nil, "\(file.lastPathComponent): \(violation.map(\.description) ?? "")")
        }
    }
}
