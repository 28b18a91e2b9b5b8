import CMirrorShims
import MirrorCore

/// libdeflate for the process: opened with dlopen(3) by its first use, not linked.
///
/// Only archive output (`--warc`, `archive`) compresses with it. Linked, it and Brotli's decoder
/// took 0.25–0.37 ms of every run's start before `main` (an empty C program linked with the
/// tool's other libraries, `perf stat -r 200`, issue #27).
enum DeflateLibrary {
    static let library = RuntimeLibrary(
        name: "libdeflate", package: "libdeflate0", load: { CMirrorShims_deflate_load() },
        loadError: { CMirrorShims_deflate_load_error() }, fileName: { CMirrorShims_deflate_library_name() })

    /// Why libdeflate cannot be used, with the fix; nil when it can. The first call opens it.
    static var unavailableReason: String? { library.unavailableReason }
}
