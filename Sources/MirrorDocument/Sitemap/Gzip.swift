import CZlib

/// gzip decompression with a bound on the output, for `.xml.gz` sitemaps.
///
/// A sitemap may be at most 50 MiB uncompressed (sitemaps.org), so decompression stops with
/// ``SitemapError/tooLarge(limit:)`` the moment the output would pass the limit: a small
/// compressed file cannot expand into gigabytes.
public enum Gzip {
    /// Whether the bytes start with the gzip magic number (1F 8B).
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Decompresses a gzip (or zlib) stream.
    ///
    /// - Parameters:
    ///   - bytes: the compressed bytes.
    ///   - limit: the largest output accepted.
    /// - Returns: the decompressed bytes.
    /// - Throws: ``SitemapError/tooLarge(limit:)`` past `limit`, ``SitemapError/corruptGzip(reason:)``
    ///   for a damaged or truncated stream.
    public static func decompress(_ bytes: [UInt8], limit: Int) throws(SitemapError) -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: a 32 KiB window, and detect the gzip or zlib header automatically.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corruptGzip(reason: "inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { source -> Int32 in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { return Z_BUF_ERROR + 1000 }
                output.append(contentsOf: chunk.prefix(produced))
                if result == Z_STREAM_END { return Z_STREAM_END }
                if result != Z_OK { return result }
                if stream.avail_in == 0 && produced == 0 { return Z_DATA_ERROR - 1000 }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_BUF_ERROR + 1000: throw .tooLarge(limit: limit)
        case Z_DATA_ERROR - 1000: throw .corruptGzip(reason: "the stream ends before its end marker")
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw .corruptGzip(reason: message)
        }
    }
}
