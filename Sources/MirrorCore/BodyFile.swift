/// A file a response body streams to, made by whoever owns the file: the store for a
/// snapshot's downloads (``BodyFileMaker``), the command line for `fetch -o`. The transfer
/// only hands it bytes; it never opens, writes or syncs a file itself.
///
/// Calls come from the one engine thread that runs the transfer, never at once.
public protocol BodyFile: AnyObject {
    /// Appends `chunk`; returns 0, or the errno that stopped the write (`ENOSPC`: the disk is full).
    func append(_ chunk: UnsafeRawBufferPointer) -> Int32
    /// Ends the file, synced to the disk first when `sync` is true; returns 0 or an errno.
    func finish(sync: Bool) -> Int32
}

/// Makes the file for a body (created 0600 and truncated, no symbolic link followed).
public protocol BodyFileMaker: Sendable {
    /// The file at `path` (absolute), or the errno that kept it from being created.
    func create(_ path: String) -> Result<any BodyFile, BodyFileError>
}

/// Why a body file could not be created.
public struct BodyFileError: Error, Sendable, Equatable {
    public let errno: Int32
    public init(errno: Int32) { self.errno = errno }
}
