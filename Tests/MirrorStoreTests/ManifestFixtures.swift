import Foundation
import MirrorCore
@testable import MirrorStore

/// Manifest entries shared by the tests of the manifest's file, records and index.
enum ManifestFixtures {
    /// An entry with every field set and about 2 KB of references (a page with many links).
    static func pageEntry(_ index: Int) -> ManifestEntry {
        var entry = ManifestTests.sampleEntry(index)
        entry.references = (0..<26).map { "\($0 % 3 == 0 ? "+" : "")https://site.example/section\(index % 97)/assets/file-\($0)-of-page-\(index).png?v=\($0)" }
        return entry
    }

    /// Entries that exercise the format: escapes, absent and empty optional fields, stale
    /// states, requisite references, hosts with non-ASCII letters (one written decomposed)
    /// whose order must be Swift's String order.
    static let unusual: [ManifestEntry] = {
        var staleRequisite = ManifestTests.awkward
        staleRequisite.stale = ManifestEntry.Stale(depth: 3, isRequisite: true)
        let bare = ManifestEntry(key: "https://bare.example/", localPath: nil, status: nil, contentType: nil, length: nil,
                                 sha256: nil, etag: nil, lastModified: nil, fetchedAt: nil, error: nil, references: [])
        let empties = ManifestEntry(key: "https://bare.example/empty", localPath: "", status: 0, contentType: "", length: -1,
                                    sha256: "", etag: "", lastModified: "", fetchedAt: Date(timeIntervalSinceReferenceDate: -0.5),
                                    error: "", references: ["", "+"], stale: ManifestEntry.Stale(depth: 0, isRequisite: false))
        func host(_ key: String) -> ManifestEntry {
            ManifestEntry(key: key, localPath: "x.html", status: 200, contentType: nil, length: 1, sha256: nil, etag: nil,
                          lastModified: nil, fetchedAt: nil, error: nil, references: ["https://b\u{FC}cher.example/"])
        }
        return [staleRequisite, bare, empties, host("https://b\u{FC}cher.example/"), host("https://a\u{308}pfel.example/"),
                host("https://zebra.example/"), host("https://\u{E9}t\u{E9}.example/"), host("https://b.example/"),
                host("https://\u{1F600}.example/"), host("https://a.example/Z"), host("https://a.example/%C3%A9")]
    }()
}
