import MirrorCore

// The common case of `relativePath(for:contentType:)`, built in one buffer.

extension PathMapper {
    /// The path of a primary-origin URL whose directory segments need no escaping, computed
    /// in one buffer; nil when any rule of the scheme could change a directory name, in which
    /// case ``relativePath(for:contentType:)`` takes the general way. The two ways give the
    /// same path (a test compares them on generated URLs).
    ///
    /// A directory segment qualifies when it is non-empty, at most
    /// ``maximumComponentLength`` bytes, all raw-safe bytes (no `%`), without a dot (so no
    /// extension to escape, no trailing dot), without upper-case letters (no case hash), not
    /// a Windows device name, and, first of all, not `_hosts` or `_mirror` (the first byte
    /// `_` is enough to send it the general way). Depth and length must be within the limits
    /// (nothing to fold). The file name is the general one.
    func directPath(for url: WebURL, contentType: String?) -> String? {
        guard url.scheme == primaryOrigin.scheme, url.host == primaryOrigin.host,
              url.effectivePort == primaryOrigin.effectivePort else { return nil }
        return url.path.utf8.withContiguousStorageIfAvailable { path -> String? in
            guard path.first == UInt8(ascii: "/") else { return nil }
            let lastSlash = path.lastIndex(of: UInt8(ascii: "/"))!
            var directories = 0
            var start = 1
            while start <= lastSlash {
                var end = start
                while path[end] != UInt8(ascii: "/") { end += 1 }
                guard isPlainDirectory(UnsafeBufferPointer(rebasing: path[start..<end])) else { return nil }
                directories += 1
                start = end + 1
            }
            guard directories <= maximumDirectoryDepth else { return nil }
            let file = fileName(lastSegment: Array(path[(lastSlash + 1)...]), query: url.query, contentType: contentType)
            let length = lastSlash + file.utf8.count  // the directories and their slashes, then the file
            guard length <= maximumPathLength else { return nil }
            let result = String(unsafeUninitializedCapacity: length) { out in
                var count = 0
                for byte in path[1..<(lastSlash + 1)] {
                    out[count] = byte
                    count += 1
                }
                for byte in file.utf8 {
                    out[count] = byte
                    count += 1
                }
                return count
            }
            return PathMapper.isSafeRelativePath(result) ? result : nil
        } ?? nil
    }

    /// Whether a directory segment is written as it is (see ``directPath(for:contentType:)``).
    private func isPlainDirectory(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !segment.isEmpty, segment.count <= maximumComponentLength, segment[0] != UInt8(ascii: "_") else { return false }
        for byte in segment {
            guard FileNameEncoding.isRawSafe(byte), byte != UInt8(ascii: "%"), byte != UInt8(ascii: "."),
                  !(byte >= 0x41 && byte <= 0x5A) else { return false }
        }
        if segment.count >= 3, segment.count <= 7,
           FileNameEncoding.deviceNames.contains(String(decoding: segment, as: UTF8.self)) {
            return false  // already lower-case (no upper-case letter passed)
        }
        return true
    }
}
