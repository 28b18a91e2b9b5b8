#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened for serving; the descriptor is closed when the object goes away.
final class OpenFile {
    /// The read-only descriptor.
    let descriptor: Int32
    /// What `fstat` said when the file was opened.
    let metadata: FileMetadata
    /// The file's path relative to the snapshot root, for the content-type lookup.
    let relativePath: String
    /// Whether the first complete read of the file should be kept in ``contents`` (set for
    /// files shared by several responses, see ``FileMemo``).
    var keepsContents = false
    /// The whole file as read once, when ``keepsContents`` was set.
    var contents: [UInt8]?
    /// The validators of ``metadata``, formatted on first use.
    private(set) lazy var validators = FileValidators(metadata)

    init(descriptor: Int32, metadata: FileMetadata, relativePath: String) {
        self.descriptor = descriptor
        self.metadata = metadata
        self.relativePath = relativePath
    }

    deinit { _ = close(descriptor) }
}

/// The facts about a file that the response depends on (size, change time, identity).
public struct FileMetadata: Sendable, Equatable {
    /// Size in bytes.
    public var size: Int64
    /// Modification time, whole seconds since 1970.
    public var modifiedSeconds: Int64
    /// Nanoseconds part of the modification time.
    public var modifiedNanoseconds: Int64
    /// The inode number.
    public var inode: UInt64

    /// Creates metadata.
    /// - Parameters:
    ///   - size: size in bytes.
    ///   - modifiedSeconds: modification time in seconds since 1970.
    ///   - modifiedNanoseconds: the nanoseconds part.
    ///   - inode: the inode number.
    public init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64 = 0, inode: UInt64 = 0) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }

    init(_ info: stat) {
        self.init(size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
                  modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), inode: UInt64(info.st_ino))
    }

    /// A strong entity tag from inode, size and modification time (quoted).
    public var entityTag: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48)
        bytes.append(0x22)
        bytes.append(hex: inode)
        bytes.append(0x2D)
        bytes.append(hex: size)
        bytes.append(0x2D)
        bytes.append(hex: modifiedSeconds)
        bytes.append(hex: modifiedNanoseconds)
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}
