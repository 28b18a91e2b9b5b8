import CMirrorShims
import MirrorCore

/// libp11 for the process: opened with dlopen(3) by its first use, not linked.
///
/// Only an identity on a token (`--cert pkcs11:…`) uses it. Linked, it took about 0.25 ms of
/// every run's start before `main` (an empty C program linked with the tool's other libraries,
/// with and without it, `perf stat -r 300`, issue #27).
enum P11Library {
    static let library = RuntimeLibrary(
        name: "libp11", package: "libp11-3", load: { CMirrorShims_p11_load() },
        loadError: { CMirrorShims_p11_load_error() }, fileName: { CMirrorShims_p11_library_name() })

    /// Why libp11 cannot be used, with the fix; nil when it can. The first call opens it.
    static var unavailableReason: String? { library.unavailableReason }
}
