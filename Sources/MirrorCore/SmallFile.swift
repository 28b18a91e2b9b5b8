#if canImport(Glibc)
import Glibc
#endif

/// Reads a small input file whole (a client identity, trust anchors, a CRL) with `open(2)` and
/// `read(2)`: regular files, and pipes such as a shell's `<(…)`.
///
/// Foundation's `FileManager.contents(atPath:)` did the same, but its first call built
/// `FileManager.default` and looked up a dozen conformances in the runtime's tables, about
/// 0.3 ms of every run's start (issue #27).
public enum SmallFile {
    /// Why a file could not be read; ``reason`` is the text errors show.
    public enum Failure: Error, Equatable, Sendable {
        /// The path names nothing.
        case missing
        /// It exists but cannot be opened or read (permissions, a folder).
        case unreadable
        /// It holds more than the limit.
        case tooLarge(limit: Int)

        public var reason: String {
            switch self {
            case .missing: "no such file"
            case .unreadable: "permission denied or not a file"
            case .tooLarge(let limit): "larger than \(limit >> 20) MiB"
            }
        }
    }

    /// The most any of these inputs may hold.
    public static let defaultLimit = 16 << 20

    /// The bytes of `path`, at most `limit` of them.
    public static func read(_ path: String, limit: Int = defaultLimit) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return .failure(.unreadable) }
        if info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit { return .failure(.tooLarge(limit: limit)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            if count == 0 { return .success(bytes) }
            guard bytes.count + count <= limit else { return .failure(.tooLarge(limit: limit)) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
