import Foundation
import MirrorStore

/// The robots.txt files a snapshot was crawled under, kept in `_mirror/robots.json` with their
/// validators, so that the next run asks for each one conditionally (`If-None-Match`,
/// `If-Modified-Since`) and an unchanged robots.txt costs a `304` and no body bytes.
struct StoredRobots: Codable, Sendable, Equatable {
    /// One origin's robots.txt as last fetched with a 2xx.
    struct Entry: Codable, Sendable, Equatable {
        var etag: String?
        var lastModified: String?
        /// The body as fetched (at most the fetch's 512 KiB cap).
        var body: Data
    }

    /// Where the file lives inside a snapshot.
    static let path = "_mirror/robots.json"

    /// Entries by origin (`https://host[:port]`).
    var origins: [String: Entry] = [:]

    /// The stored robots.txt files of a snapshot; empty when the file is missing or unreadable
    /// (the next run then fetches robots.txt unconditionally, as a first run does).
    static func load(from fileSystem: SecureFileSystem) -> StoredRobots {
        guard let bytes = try? fileSystem.read(path),
              let stored = try? JSONDecoder().decode(StoredRobots.self, from: Data(bytes))
        else { return StoredRobots() }
        return stored
    }

    /// Writes the file into a snapshot (0600, atomically).
    /// - Throws: ``MirrorStore/StoreError`` when it cannot be written.
    func save(to fileSystem: SecureFileSystem) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try fileSystem.write(Array(try encoder.encode(self)), to: Self.path)
    }
}
