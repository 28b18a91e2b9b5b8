import CMirrorShims
import MirrorCore

/// Brotli's decoder for the process: opened with dlopen(3) by its first use, not linked.
///
/// Only an exchange recorded for an archive (`--warc`) decodes br bodies itself (libcurl
/// decodes them otherwise). Linked, the library and libdeflate took 0.25–0.37 ms of every run's
/// start before `main` (an empty C program linked with the tool's other libraries, `perf stat -r
/// 200`, issue #27).
enum BrotliLibrary {
    static let library = RuntimeLibrary(
        name: "Brotli's decoder", package: "libbrotli1", load: { CMirrorShims_brotli_load() },
        loadError: { CMirrorShims_brotli_load_error() }, fileName: { CMirrorShims_brotli_library_name() })

    /// Why the decoder cannot be used, with the fix; nil when it can. The first call opens it.
    static var unavailableReason: String? { library.unavailableReason }
}
