/// The fuzz targets, by name: what the libFuzzer entry points and the corpus replay tests run.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// URL normalisation and path mapping (``URLPathHarness``).
    case urlPath = "url-path"
    /// HTML extraction and rewriting (``HTMLRewriteHarness``).
    case htmlRewrite = "html-rewrite"
    /// The CSS tokenizer, extraction and rewriting (``CSSHarness``).
    case css = "css"
    /// The srcset parser (``SrcsetHarness``).
    case srcset = "srcset"
    /// The server's request parser and path confinement (``HTTPRequestHarness``).
    case httpRequest = "http-request"

    /// Runs the target's harness on one input.
    /// - Parameter data: the input bytes.
    /// - Returns: the first broken invariant, or nil.
    public func run(_ data: [UInt8]) -> FuzzViolation? {
        switch self {
        case .urlPath: URLPathHarness.run(data)
        case .htmlRewrite: HTMLRewriteHarness.run(data)
        case .css: CSSHarness.run(data)
        case .srcset: SrcsetHarness.run(data)
        case .httpRequest: HTTPRequestHarness.run(data)
        }
    }

    /// The body of `LLVMFuzzerTestOneInput`: runs the harness and stops the process on a
    /// broken invariant so that libFuzzer keeps the input.
    /// - Parameters:
    ///   - data: libFuzzer's buffer (may be nil when `size` is 0).
    ///   - size: its length.
    /// - Returns: 0, as libFuzzer expects.
    public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let violation = run(bytes) { FuzzInvariant.fail(violation) }
        return 0
    }
}
