#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SecureFileSystem {
    /// Appends one line (a newline is added) to the file at `relativePath`, creating it 0600,
    /// in one `write(2)` with `O_APPEND`, so that concurrent readers see whole lines. A last line
    /// that a killed writer left without its newline is ended first, so the new line stays a
    /// line of its own.
    /// - Throws: ``StoreError/io(operation:path:errno:)``, ``StoreError/diskFull(path:)`` and the
    ///   errors of path walking (the folder must exist).
    public func appendLine(_ line: [UInt8], to relativePath: String) throws(StoreError) {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory = try openDirectory(components: components.dropLast(), create: false)
        let descriptor = openat(directory.descriptor, components[components.count - 1],
                                O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: relativePath) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw StoreError.from(errno: errno, operation: "fchmod", path: relativePath) }
        var bytes = line
        bytes.append(0x0A)
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, off_t(info.st_size - 1)) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw StoreError.from(errno: errno, operation: "write", path: relativePath)
            }
            offset += written
        }
    }
}
