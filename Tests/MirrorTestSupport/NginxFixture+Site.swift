import Foundation
import MirrorCore

extension NginxFixture {
    /// The docroot that every server block of a fixture serves under `/`.
    ///
    /// Files can be written before or after nginx starts; nginx reads them per request.
    ///
    /// ```swift
    /// try nginx.site.write("index.html", "<a href=\"/a.css\">")
    /// try nginx.site.write("img/logo.png", pngData)
    /// ```
    public struct Site: Sendable {
        /// Why a file could not be written.
        public enum Failure: DiagnosableError {
            /// `relativePath` is empty, absolute or climbs out of the docroot with `..`.
            case pathOutsideDocroot(relativePath: String)
            /// Writing `path` failed with `reason`.
            case writeFailed(path: String, reason: String)

            public var category: ErrorCategory { .io }
            public var summary: String {
                switch self {
                case .pathOutsideDocroot(let relativePath):
                    "site path \"\(relativePath)\" is not inside the docroot"
                case .writeFailed(let path, let reason):
                    "could not write site file \(path): \(reason)"
                }
            }
            public var hint: String {
                switch self {
                case .pathOutsideDocroot: "use a relative path such as \"dir/page.html\""
                case .writeFailed: "check free space in the temporary directory"
                }
            }
        }

        /// The docroot directory.
        public let root: URL

        /// Creates a site over an existing directory.
        ///
        /// - Parameters:
        ///   - root: The docroot.
        public init(root: URL) {
            self.root = root
        }

        /// Writes `contents` as UTF-8 to `relativePath`, creating directories as needed.
        ///
        /// - Parameters:
        ///   - relativePath: The path under the docroot, which is also the URL path.
        ///   - contents: The file's text.
        /// - Throws: ``Failure/pathOutsideDocroot(relativePath:)`` for an unsafe path,
        ///   ``Failure/writeFailed(path:reason:)`` when the file cannot be written.
        public func write(_ relativePath: String, _ contents: String) throws {
            try write(relativePath, Data(contents.utf8))
        }

        /// Writes `contents` to `relativePath`, creating directories as needed.
        ///
        /// - Parameters:
        ///   - relativePath: The path under the docroot, which is also the URL path.
        ///   - contents: The file's bytes.
        /// - Throws: ``Failure/pathOutsideDocroot(relativePath:)`` for an unsafe path,
        ///   ``Failure/writeFailed(path:reason:)`` when the file cannot be written.
        public func write(_ relativePath: String, _ contents: Data) throws {
            let file = try fileURL(relativePath)
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: file, options: .atomic)
            } catch {
                throw Failure.writeFailed(path: file.path, reason: "\(error)")
            }
        }

        /// Removes the file or directory at `relativePath`; a missing file is not an error.
        ///
        /// - Parameters:
        ///   - relativePath: The path under the docroot.
        /// - Throws: ``Failure/pathOutsideDocroot(relativePath:)`` for an unsafe path.
        public func remove(_ relativePath: String) throws {
            let file = try fileURL(relativePath)
            try? FileManager.default.removeItem(at: file)
        }

        /// The file URL of `relativePath` under the docroot.
        ///
        /// - Parameters:
        ///   - relativePath: The path under the docroot.
        /// - Throws: ``Failure/pathOutsideDocroot(relativePath:)`` when it is empty, absolute
        ///   or contains a `..` component.
        public func fileURL(_ relativePath: String) throws -> URL {
            let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
            guard !relativePath.isEmpty, !relativePath.hasPrefix("/"),
                components.allSatisfy({ $0 != ".." && !$0.isEmpty })
            else { throw Failure.pathOutsideDocroot(relativePath: relativePath) }
            return root.appendingPathComponent(relativePath)
        }
    }
}
