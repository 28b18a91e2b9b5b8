import CCurl
import CMirrorShims
import MirrorCore

/// libcurl for the process: opened with dlopen(3) and initialised once (curl_global_init is
/// not thread-safe), on a thread of its own from ``preload()``, or by the first call that
/// needs it.
public enum CurlGlobal {
    /// Starts opening libcurl on a thread of its own, once, and returns at once. Its 30
    /// libraries took 4.8 ms of every run's start while linked (issue #27). The commands call
    /// this as they read the client identity, not first thing in `main`: glibc's `dlopen`
    /// holds the lock that `pthread_create` takes, and the Swift runtime starts its threads
    /// in the first milliseconds, which then waited for the whole load.
    ///
    /// - Parameter next: called on that thread once libcurl is open: another library to open
    ///   there (``MirrorDocument/LibXML2/openWhenAllowed``), after libcurl and not beside it (a second
    ///   `dlopen` would wait on the loader's lock, and a second thread be a third on two cores).
    ///   Not called when the load has started already.
    public static func preload(then next: (@convention(c) () -> Void)? = nil) { CMirrorShims_curl_preload_then(next) }

    static let library = RuntimeLibrary(
        name: "libcurl", package: "libcurl4", load: { CMirrorShims_curl_load() },
        loadError: { CMirrorShims_curl_load_error() }, fileName: { CMirrorShims_curl_library_name() })

    /// Why libcurl cannot be used (it could not be opened, or not initialised), with the fix;
    /// nil when it can. Waits for ``preload()``'s thread.
    public static var unavailableReason: String? { library.unavailableReason }

    /// libcurl's own text for an error code.
    static func describe(_ code: CURLcode) -> String {
        guard let text = CMirrorShims_curl_easy_strerror(code) else { return "error \(code.rawValue)" }
        return String(cString: text)
    }
}
