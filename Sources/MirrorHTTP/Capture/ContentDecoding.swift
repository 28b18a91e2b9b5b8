/// Decodes a whole body's `Content-Encoding` (gzip, deflate, br), as the engine does while a
/// captured body streams in: for code that holds a payload as it was sent, such as a replay of
/// an archive.
public enum ContentDecoding {
    /// Why a body could not be decoded.
    public enum Failure: Error, Equatable {
        /// An encoding the decoder does not know, or data invalid for it (the message says which).
        case undecodable(String)
        /// The decoded body would pass `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// `bytes` decoded; unchanged for an empty or `identity` encoding.
    /// - Parameters:
    ///   - bytes: the body as sent.
    ///   - contentEncoding: the `Content-Encoding` value.
    ///   - limit: the most decoded bytes accepted (a decompression-bomb guard).
    /// - Throws: ``Failure``.
    public static func decode(_ bytes: [UInt8], contentEncoding: String, limit: Int) throws(Failure) -> [UInt8] {
        let decoder: ContentDecoder?
        do {
            decoder = try ContentDecoder(contentEncoding: contentEncoding)
        } catch {
            throw .undecodable(error.message)
        }
        guard let decoder else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, bytes.count * 4))
        var overflow = false
        var failure: ContentDecoder.Failure?
        bytes.withUnsafeBytes { input in
            do throws(ContentDecoder.Failure) {
                _ = try decoder.decode(input) { piece in
                    if output.count + piece.count > limit {
                        overflow = true
                        return false
                    }
                    output.append(contentsOf: piece.bindMemory(to: UInt8.self))
                    return true
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw .undecodable(failure.message) }
        if overflow { throw .tooLarge(limit: limit) }
        return output
    }
}
