/// A C library the tool opens at run time (`dlopen(3)`, through its table in CMirrorShims)
/// instead of linking it: libcurl, libxml2, Brotli's decoder, libdeflate, libp11 (issue #27).
///
/// Each shim offers the same three functions: open the library (once; later calls return at
/// once, or wait for a load in progress), why it could not be opened, and its file name.
public struct RuntimeLibrary: Sendable {
    /// What users call it ("libcurl", "Brotli's decoder").
    public let name: String
    /// The Debian package that ships the library file.
    public let package: String
    private let load: @Sendable () -> Int32
    private let loadError: @Sendable () -> UnsafePointer<CChar>?
    private let fileName: @Sendable () -> UnsafePointer<CChar>

    /// - Parameters:
    ///   - load: the shim's load function: 0 when the library is open, -1 when it cannot be.
    ///   - loadError: the shim's reason for a failed load.
    ///   - fileName: the shim's file name of the library.
    public init(name: String, package: String, load: @escaping @Sendable () -> Int32,
                loadError: @escaping @Sendable () -> UnsafePointer<CChar>?, fileName: @escaping @Sendable () -> UnsafePointer<CChar>) {
        self.name = name
        self.package = package
        self.load = load
        self.loadError = loadError
        self.fileName = fileName
    }

    /// The library's file name ("libcurl.so.4").
    public var file: String { String(cString: fileName()) }

    /// Why the library cannot be used (it could not be opened, or lacks a function), with the
    /// fix; nil when it can. Opens it first when no load has started.
    public var unavailableReason: String? {
        guard load() != 0 else { return nil }
        let reason = loadError().map { String(cString: $0) } ?? "unknown reason"
        return "\(name) (\(file)) cannot be used: \(reason); install Debian's \(package) package"
    }
}
