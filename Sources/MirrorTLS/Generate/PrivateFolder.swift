import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder only its owner can enter (0700), into which files are written readable only by
/// their owner (0600), each replaced atomically (temporary file, then `rename`).
public struct PrivateFolder: Sendable {
    /// The folder's path.
    public let path: String

    /// Creates the folder (and missing parents) or adopts an existing one, and makes it 0700.
    ///
    /// - Parameter path: the folder.
    /// - Throws: ``CertificateGenerationError/directoryUnusable(path:reason:)`` when it cannot be
    ///   created, is a symbolic link or not a folder, belongs to another user, or cannot be
    ///   made private.
    public init(_ path: String) throws(CertificateGenerationError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .directoryUnusable(path: path, reason: "\(error.localizedDescription)")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .directoryUnusable(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .directoryUnusable(path: path, reason: "not a folder (or a symbolic link)")
        }
        guard info.st_uid == geteuid() else { throw .directoryUnusable(path: path, reason: "owned by another user") }
        guard chmod(path, 0o700) == 0 else { throw .directoryUnusable(path: path, reason: String(cString: strerror(errno))) }
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` with mode 0600, replacing any earlier file atomically.
    ///
    /// - Parameters:
    ///   - bytes: the content.
    ///   - name: a file name inside the folder (no `/`).
    /// - Throws: ``CertificateGenerationError/writeFailed(path:reason:)``.
    public func write(_ bytes: [UInt8], to name: String) throws(CertificateGenerationError) {
        let target = file(name)
        let temporary = file(".\(name).tmp-\(getpid())")
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: target, reason: String(cString: strerror(errno))) }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = String(cString: strerror(errno)) }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
            } else {
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .writeFailed(path: target, reason: failure)
        }
    }
}
