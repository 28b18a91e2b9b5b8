import CCurl

/// Process-wide libcurl initialisation (curl_global_init is not thread-safe; run it once).
enum CurlGlobal {
    private static let initialised: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    static func ensureInitialised() { _ = initialised }

    /// libcurl's own text for an error code.
    static func describe(_ code: CURLcode) -> String {
        guard let text = curl_easy_strerror(code) else { return "error \(code.rawValue)" }
        return String(cString: text)
    }
}
