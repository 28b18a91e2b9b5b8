import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The browser's throwaway home: a private (0700) temporary folder holding its profile
/// (`--user-data-dir`), its `XDG_CONFIG_HOME` and `XDG_CACHE_HOME` (where crashpad keeps its
/// database), its `TMPDIR` and its standard error. Removed with everything in it when the
/// browser stops; nothing of a rendering outlives the run.
///
/// The browser never receives the client identity, so the folder never holds a key; a test
/// searches it for the key's bytes to prove that.
struct ProfileFolder: Sendable {
    /// The folder.
    let path: String

    var userDataDirectory: String { path + "/profile" }
    var configDirectory: String { path + "/config" }
    var cacheDirectory: String { path + "/cache" }
    /// The browser's `TMPDIR`: the folder itself, since Chromium puts a Unix socket there
    /// (`org.chromium.Chromium.XXXXXX/SingletonSocket`) and socket paths are limited to 107 bytes.
    var temporaryDirectory: String { path }
    var standardErrorFile: String { path + "/browser.stderr" }

    /// `/org.chromium.Chromium.XXXXXX/SingletonSocket`, which Chromium appends to `TMPDIR`.
    static let socketSuffixLength = 45

    /// Makes a new folder `mtls-mirror-browser-XXXXXX` (mode 0700) under `parent` (by default
    /// `TMPDIR`, or `/tmp` when `TMPDIR` is too long for Chromium's socket path), with the
    /// subfolders the browser is pointed at.
    /// - Throws: ``RenderError/launchFailed(executable:errno:)`` with the failing `errno`.
    static func create(in parent: String? = nil, executable: String) throws(RenderError) -> ProfileFolder {
        // TMPDIR when the socket path under it fits, else /tmp; an explicit parent must fit.
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let base = parent ?? (temporary.utf8.count + 27 + socketSuffixLength <= 107 ? temporary : "/tmp")
        var template = Array((base + "/mtls-mirror-browser-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let pointer = buffer.baseAddress else { return false }
            return mkdtemp(pointer) != nil
        }
        guard made else { throw .launchFailed(executable: executable, errno: errno) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = ProfileFolder(path: path)
        guard path.utf8.count + Self.socketSuffixLength <= 107 else {
            folder.remove()
            throw .launchFailed(executable: executable, errno: ENAMETOOLONG)
        }
        for directory in [folder.userDataDirectory, folder.configDirectory, folder.cacheDirectory] {
            guard mkdir(directory, 0o700) == 0 else {
                let code = errno
                folder.remove()
                throw .launchFailed(executable: executable, errno: code)
            }
        }
        chmod(path, 0o700)
        return folder
    }

    /// The last non-empty lines of the browser's standard error (for error messages), without
    /// the D-Bus complaints every headless start prints.
    func standardErrorTail(lines: Int = 2) -> String {
        guard let text = try? String(contentsOfFile: standardErrorFile, encoding: .utf8) else { return "" }
        // D-Bus complaints and crashpad's missing cpufreq files are printed by every start.
        let useful = text.split(separator: "\n").filter { !$0.contains("dbus") && !$0.contains("crashpad") && !$0.isEmpty }
        return useful.suffix(lines).joined(separator: " | ")
    }

    /// Removes the folder and everything in it (symbolic links are removed, never followed).
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
