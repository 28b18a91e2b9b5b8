import MirrorCore

/// Why `mtls-mirror demo` could not set itself up.
enum DemoError: DiagnosableError, Equatable {
    /// A file of the sample site could not be written.
    case cannotWrite(path: String, reason: String)
    /// The temporary folder for the embedded origin could not be created.
    case temporaryFolder(path: String, reason: String)

    var category: ErrorCategory { .io }

    var summary: String {
        switch self {
        case let .cannotWrite(path, reason): "demo: cannot write \(path): \(reason)"
        case let .temporaryFolder(path, reason): "demo: cannot create a temporary folder in \(path): \(reason)"
        }
    }

    var hint: String {
        switch self {
        case .cannotWrite, .temporaryFolder: "check free space and permissions of the temporary folder (TMPDIR)"
        }
    }
}
