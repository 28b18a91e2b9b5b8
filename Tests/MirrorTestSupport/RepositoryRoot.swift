import Foundation
import MirrorCore

/// Finds the checkout of mtls-mirror that the tests were compiled from.
///
/// The search walks up from a source file's path (`#filePath`) to the first directory that
/// holds a `Package.swift`. It needs no network and no environment variables, so it works in a
/// fresh clone.
public enum RepositoryRoot {
    /// Why the repository could not be found.
    public enum Failure: DiagnosableError {
        /// No directory above `start` contains a `Package.swift`.
        case notFound(start: String)

        public var category: ErrorCategory { .internal }
        public var summary: String {
            switch self {
            case .notFound(let start): "no Package.swift above \(start)"
            }
        }
        public var hint: String { "run the tests from a checkout of mtls-mirror" }
    }

    /// The directory holding `Package.swift`, searched upwards from `filePath`.
    ///
    /// - Parameters:
    ///   - filePath: Where to start; defaults to this source file.
    /// - Throws: ``Failure/notFound(start:)`` when no ancestor holds a `Package.swift`.
    public static func locate(from filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let manifest = directory.appendingPathComponent("Package.swift")
            if FileManager.default.fileExists(atPath: manifest.path) { return directory }
            directory = directory.deletingLastPathComponent()
        }
        throw Failure.notFound(start: filePath)
    }
}
