import Foundation

/// A uniquely named directory under the system temporary directory, removed with everything in
/// it when the object is released or ``remove()`` is called.
///
/// Tests keep the object alive for as long as they need the files:
///
/// ```swift
/// let scratch = try TemporaryDirectory()
/// try Data("x".utf8).write(to: scratch.url.appendingPathComponent("a.txt"))
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory, with symbolic links resolved (so `/var` on macOS reads `/private/var`).
    public let url: URL

    /// The directory as a file-system path.
    public var path: String { url.path }

    /// Creates a new, empty directory.
    ///
    /// - Parameters:
    ///   - prefix: The start of the directory's name, to tell test leftovers apart.
    /// - Throws: The file manager's error when the directory cannot be created.
    public init(prefix: String = "mtls-mirror-test") throws {
        let base = FileManager.default.temporaryDirectory.resolvingSymlinksInPath()
        let url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        self.url = url
    }

    /// The URL of `relativePath` inside the directory (nothing is created).
    ///
    /// - Parameters:
    ///   - relativePath: A path relative to the directory, such as `"out/index.html"`.
    public func appending(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }

    /// Removes the directory and its contents. Calling it again, or releasing the object
    /// afterwards, does nothing.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}
