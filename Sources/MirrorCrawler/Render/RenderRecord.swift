import Foundation

/// What one rendered page depended on, kept in the snapshot's `_mirror/render.json` so that a
/// refresh can tell whether it must render the page again: its document, and every response
/// the page loaded (method, URL, the body of a POST by its hash), with the validators and the
/// hash of what came back.
struct RenderRecord: Codable, Sendable, Equatable {
    /// One request the page made, and what answered it.
    struct Dependency: Codable, Sendable, Equatable, Hashable {
        var method: String
        var url: String
        /// SHA-256 of a POST's body.
        var requestSHA256: String?
        /// A POST's body (base64), when at most ``largestKeptBody`` bytes: a refresh sends it
        /// again to see whether the answer changed.
        var requestBody: String?
        /// The status the page got (0: the request failed).
        var status: Int
        /// SHA-256 of the body the page got.
        var sha256: String?
        var etag: String?
        var lastModified: String?
        /// `Location` of a redirect.
        var location: String?
    }

    /// The largest POST body kept for a refresh to send again.
    static let largestKeptBody = 64 * 1024

    /// The page's URL.
    var url: String
    /// How the page is stored (``RenderSettings/Scripts``).
    var scripts: RenderSettings.Scripts
    /// `idle`, or `budget-cut: <limit>`.
    var completion: String
    var seconds: Double
    /// The page's document as fetched (before rendering).
    var document: Dependency
    /// Every other response, in the order they were answered.
    var dependencies: [Dependency]
}

/// A response recorded for replay that has no file of its own in the snapshot (a POST's):
/// its body is kept as `_mirror/replay/<sha256>`.
struct ReplayEntry: Codable, Sendable, Equatable {
    var method: String
    var url: String
    /// SHA-256 of the request body: a POST is answered only for the same body.
    var requestSHA256: String?
    var status: Int
    var contentType: String?
    /// SHA-256 of the response body, which names its file.
    var sha256: String
    /// The page that made the request.
    var page: String

    static func file(sha256: String) -> String { "_mirror/replay/\(sha256)" }
}

/// The file `_mirror/render.json`: render mode's part of a snapshot.
struct RenderFile: Codable, Sendable {
    var version = 1
    var scripts: RenderSettings.Scripts
    var pages: [RenderRecord]
    var replay: [ReplayEntry]

    static let path = "_mirror/render.json"
}
