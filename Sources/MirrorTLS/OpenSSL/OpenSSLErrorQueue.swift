import COpenSSL

/// Reads OpenSSL's thread-local error queue.
///
/// OpenSSL reports why a call failed by pushing entries on a per-thread queue. Every failing
/// call site drains it right away so that the entries explain that call and no later one.
enum OpenSSLErrorQueue {
    /// One entry of the error queue.
    struct Entry: Sendable, Equatable {
        /// The packed error code (`ERR_get_error`).
        var code: UInt
        /// The reason part of the code (`ERR_GET_REASON`).
        var reason: Int32
        /// OpenSSL's text for the code (`ERR_error_string_n`).
        var text: String
    }

    /// Removes and returns every entry of this thread's queue, oldest first.
    static func drain() -> [Entry] {
        var entries: [Entry] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            entries.append(Entry(code: code, reason: ERR_GET_REASON(code), text: text))
        }
        return entries
    }

    /// Drains the queue and joins the texts with "; ", or gives `fallback` when it was empty.
    static func drainedText(fallback: String = "no detail from OpenSSL") -> String {
        describe(drain(), fallback: fallback)
    }

    /// Joins the texts of `entries` with "; ", or gives `fallback` when there are none.
    static func describe(_ entries: [Entry], fallback: String = "no detail from OpenSSL") -> String {
        entries.isEmpty ? fallback : entries.map(\.text).joined(separator: "; ")
    }
}
