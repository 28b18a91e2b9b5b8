import Foundation

/// A secret value (a password) that never prints itself.
///
/// `description`, `debugDescription` and string interpolation all give `<redacted>`, so a
/// secret that ends up in a log line, an error message or a report leaks nothing. The bytes
/// are reachable only through ``withUnsafeBytes(_:)`` and ``reveal()``, which makes every
/// place that handles the real value easy to find in review.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private let storage: [UInt8]

    /// Creates a secret from UTF-8 text. A single trailing newline (as left by `echo` into a
    /// password file) is removed.
    public init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        storage = bytes
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "Secret(<redacted>)" }
    public var isEmpty: Bool { storage.isEmpty }

    /// The secret as a String, for handing to a C API. Do not log the result.
    public func reveal() -> String { String(decoding: storage, as: UTF8.self) }

    /// Calls `body` with the secret's bytes followed by a NUL, for C APIs taking `const char *`.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try reveal().withCString(body)
    }
}
