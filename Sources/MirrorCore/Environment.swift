#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables, read one at a time with `getenv(3)`.
///
/// Foundation's `ProcessInfo.processInfo.environment` builds a dictionary of every variable on
/// each call, and its first call looks up the dictionary's conformances in the runtime's tables
/// (a scan of the binary's conformance records): about 0.5 ms of every run's start, for the
/// two or three names a run reads (issue #27).
public enum Environment {
    /// The value of `name`, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }

    /// The variables among `names` that are set, by name (an empty value counts as set).
    public static func values(_ names: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let value = value(name) { found[name] = value }
        }
        return found
    }
}
