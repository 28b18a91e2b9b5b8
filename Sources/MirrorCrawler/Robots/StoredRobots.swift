import Foundation
import MirrorCore
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
        try fileSystem.write(jsonBytes(), to: Self.path)
    }

    /// The file's text: what `JSONEncoder` with `.sortedKeys` wrote (each body in Base64,
    /// absent validators left out), written by hand since it is on the way from robots.txt to
    /// the first page (see ``MirrorCore/JSONWriter``).
    func jsonBytes() -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("origins")
        json.beginObject()
        for (origin, entry) in origins.sorted(by: { $0.key < $1.key }) {
            json.key(origin)
            json.beginObject()
            json.field("body", entry.body.base64EncodedString())
            json.field("etag", entry.etag)
            json.field("lastModified", entry.lastModified)
            json.endObject()
        }
        json.endObject()
        json.endObject()
        return json.bytes
    }
}
