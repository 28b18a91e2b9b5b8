import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// Why render mode cannot work at all: the browser is missing, cannot be shut off from the
/// network, or does not start. A run that needs the browser stops before it fetches anything
/// (exit code 12). What goes wrong with one page is a ``PageRenderFailure`` instead.
public enum RenderError: DiagnosableError, Sendable, Equatable {
    /// No Chromium executable at `path`.
    case browserNotInstalled(path: String)
    /// The browser could not be started in a network namespace of its own (`unshare` failed):
    /// render mode never runs a browser that can reach the network by itself.
    case isolationUnavailable(command: String, status: Int32, detail: String)
    /// `posix_spawn` of the browser failed with `errno`.
    case launchFailed(executable: String, errno: Int32)
    /// The browser exited, or closed its DevTools pipe, before it was ready; `detail` is the
    /// last line of its standard error.
    case browserExited(status: String, detail: String)
    /// The browser did not answer its first commands within `seconds`.
    case startTimedOut(seconds: Double)
    /// The browser was asked to stop (the run is ending).
    case stopped

    public var category: ErrorCategory { .browser }

    public var summary: String {
        switch self {
        case .browserNotInstalled(let path):
            "render mode needs Chromium, and there is no browser at \(path)"
        case .isolationUnavailable(let command, let status, let detail):
            "cannot start the browser without network access: `\(command)` exited \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        case .launchFailed(let executable, let code):
            "cannot start the browser \(executable): \(String(cString: strerror(code)))"
        case .browserExited(let status, let detail):
            "the browser \(status) while starting" + (detail.isEmpty ? "" : ": \(detail)")
        case .startTimedOut(let seconds):
            "the browser did not answer within \(NumberText.fixed(seconds, fractionDigits: 0)) s of starting"
        case .stopped:
            "the browser was stopped"
        }
    }

    public var hint: String {
        switch self {
        case .browserNotInstalled:
            "install the Debian package chromium (sudo apt-get install chromium), or set MTLS_MIRROR_CHROMIUM to the browser binary"
        case .isolationUnavailable:
            "the browser runs in a network namespace of its own; allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run as root"
        case .launchFailed, .browserExited, .startTimedOut:
            "check that `/usr/lib/chromium/chromium --headless=new --version` works; reinstall the Debian package chromium"
        case .stopped:
            ""
        }
    }
}

/// Why one page could not be rendered. Its document is then kept as fetched, and the report
/// lists the page.
public enum PageRenderFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The browser crashed (or stopped answering) on this page, twice.
    case browserCrashed(attempts: Int)
    /// The page's renderer crashed, twice.
    case pageCrashed(attempts: Int)
    /// The page stayed busy even after its scripts were stopped: its DOM could not be read.
    case unresponsive(attempts: Int)
    /// The navigation failed (`Page.navigate` reported `errorText`).
    case navigationFailed(errorText: String)
    /// The browser could not be started again after a crash.
    case browserUnavailable(RenderError)

    public var description: String {
        switch self {
        case .browserCrashed(let attempts): "the browser crashed while rendering it (\(attempts) attempts)"
        case .pageCrashed(let attempts): "the page's renderer crashed (\(attempts) attempts)"
        case .unresponsive(let attempts): "the page stayed busy and its DOM could not be read (\(attempts) attempts)"
        case .navigationFailed(let text): "the browser could not load it: \(text)"
        case .browserUnavailable(let error): error.summary
        }
    }

    /// A stable kind for reports: `render-crash`, `render-unresponsive`, …
    public var kind: String {
        switch self {
        case .browserCrashed, .pageCrashed: "render-crash"
        case .unresponsive: "render-unresponsive"
        case .navigationFailed: "render-navigation"
        case .browserUnavailable: "render-browser"
        }
    }
}
