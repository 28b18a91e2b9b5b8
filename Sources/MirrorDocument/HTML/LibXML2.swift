import CMirrorShims
import Dispatch
import MirrorCore

/// libxml2 for the process: opened with dlopen(3) and initialised once (`xmlInitParser`), on a
/// thread that opens it ahead of its use (``open``, ``openWhenAllowed``), or by the first call
/// that needs it.
///
/// Linked, Debian's libxml2 and the ICU and liblzma it brings took about 1.2 ms of every run's
/// start before `main` (an empty C program linked with the tool's libraries starts in 3.9 ms,
/// 2.4–2.7 ms without these; issue #27). The first HTML document arrives many milliseconds
/// after a command starts, by which time the library is open.
public enum LibXML2 {
    /// Opens libxml2 (once; later calls return at once), on the calling thread, which waits for
    /// it: for a thread that opens libraries ahead of their use.
    public static let open: @convention(c) () -> Void = { _ = CMirrorShims_xml_load() }

    /// ``open``, once a run's first request is on its way (``allowOpening()``), or 50 ms after
    /// it was called: what `mirror` and `refresh` run on libcurl's loading thread
    /// (``MirrorHTTP/CurlGlobal/preload(then:)``). Opened right after libcurl, its `dlopen`
    /// (1.5–3 ms, holding the loader's lock) ran while the run set itself up, and that set-up
    /// waited for the lock to start its threads; the first HTML document comes after robots.txt
    /// and the start page's round trip (issue #27).
    public static let openWhenAllowed: @convention(c) () -> Void = {
        _ = openingAllowed.wait(timeout: .now() + .milliseconds(50))
        _ = CMirrorShims_xml_load()
    }

    private static let openingAllowed = DispatchSemaphore(value: 0)

    /// Lets ``openWhenAllowed`` open libxml2 now: called when a run's first request has left.
    public static func allowOpening() { openingAllowed.signal() }

    static let library = RuntimeLibrary(
        name: "libxml2", package: "libxml2", load: { CMirrorShims_xml_load() },
        loadError: { CMirrorShims_xml_load_error() }, fileName: { CMirrorShims_xml_library_name() })

    /// Why libxml2 cannot be used (it could not be opened, or lacks a function), with the fix;
    /// nil when it can. Waits for a load in progress on another thread.
    public static var unavailableReason: String? { library.unavailableReason }
}
