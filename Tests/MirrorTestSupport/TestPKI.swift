import Foundation
import MirrorCore

/// The throwaway certificates, keys and PKCS#12 files made by `scripts/gen-test-pki.sh`.
///
/// ``shared()`` generates one set per test process on first use (thread-safe) and removes it
/// when the process exits. Tests that change or delete files take a private ``fresh()`` copy.
/// The script's header lists every file; the common ones:
///
/// | File | What |
/// |---|---|
/// | `server-root.pem` | trust anchor for the test servers (`--cacert`) |
/// | `client.p12` | `CN=mirror-client-1`, protected by ``password`` |
/// | `client-chain.pem` / `client.key` | the same identity as PEM |
/// | `client-root.pem` | the CA nginx trusts for client certificates |
///
/// ```swift
/// let pki = try TestPKI.shared()
/// let identity = pki.path("client.p12")
/// ```
public struct TestPKI: Sendable {
    /// Why the PKI could not be made.
    public enum Failure: DiagnosableError {
        /// `scripts/gen-test-pki.sh` exited with `exitCode`; `stderr` is what it printed.
        case generationFailed(script: String, exitCode: Int32, stderr: String)
        /// The script ran but `file` is missing from its output.
        case missingFile(path: String)
        /// Copying the PKI for ``TestPKI/fresh()`` failed.
        case copyFailed(from: String, to: String, reason: String)

        public var category: ErrorCategory { .internal }
        public var summary: String {
            switch self {
            case .generationFailed(let script, let code, let stderr):
                "\(script) failed with exit \(code): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
            case .missingFile(let path):
                "test PKI file \(path) is missing"
            case .copyFailed(let from, let to, let reason):
                "could not copy the test PKI from \(from) to \(to): \(reason)"
            }
        }
        public var hint: String {
            switch self {
            case .generationFailed, .missingFile: "run scripts/install-deps.sh (it needs openssl and bash)"
            case .copyFailed: "check free space in the temporary directory"
            }
        }
    }

    /// The directory holding the PKI files.
    public let directory: URL
    /// The password of every `.p12` file and of `client-enc.key`, read from `password.txt`.
    public let password: String
    /// Keeps a private copy's directory alive; `nil` for the shared PKI.
    private let storage: TemporaryDirectory?

    /// The PKI shared by every test in this process, generated on first use.
    ///
    /// - Throws: ``Failure/generationFailed(script:exitCode:stderr:)`` when the script fails,
    ///   ``Failure/missingFile(path:)`` when its output lacks `password.txt`, and
    ///   ``RepositoryRoot/Failure/notFound(start:)`` when the script cannot be found. The
    ///   same error is thrown on every later call.
    public static func shared() throws -> TestPKI {
        try sharedResult.get()
    }

    private static let sharedResult: Swift.Result<TestPKI, any Error> = Swift.Result {
        let directory = try TemporaryDirectory(prefix: "mtls-mirror-pki")
        let path = directory.path
        _ = ExitCleanup.register { try? FileManager.default.removeItem(atPath: path) }
        return try generate(into: directory.url, storage: directory)
    }

    /// Generates a brand-new PKI (new keys) in its own temporary directory, removed when the
    /// last copy of the returned value is released.
    ///
    /// - Throws: The errors of ``shared()``.
    public static func generate() throws -> TestPKI {
        let directory = try TemporaryDirectory(prefix: "mtls-mirror-pki")
        return try generate(into: directory.url, storage: directory)
    }

    /// A private copy of this PKI's files (the same keys and certificates) in a new temporary
    /// directory, removed when the last copy of the returned value is released.
    ///
    /// - Throws: ``Failure/copyFailed(from:to:reason:)`` when the files cannot be copied.
    public func fresh() throws -> TestPKI {
        let copy = try TemporaryDirectory(prefix: "mtls-mirror-pki")
        let target = copy.url.appendingPathComponent("pki", isDirectory: true)
        do {
            try FileManager.default.copyItem(at: directory, to: target)
        } catch {
            throw Failure.copyFailed(from: directory.path, to: target.path, reason: "\(error)")
        }
        return TestPKI(directory: target, password: password, storage: copy)
    }

    /// The full path of the PKI file `name`, such as `pki.path("client.p12")`.
    ///
    /// - Parameters:
    ///   - name: A file name from the script's list.
    public func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The URL of the PKI file `name`.
    ///
    /// - Parameters:
    ///   - name: A file name from the script's list.
    public func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// The password wrapped as a ``Secret``, for APIs that take one.
    public var secretPassword: Secret { Secret(password) }

    private init(directory: URL, password: String, storage: TemporaryDirectory?) {
        self.directory = directory
        self.password = password
        self.storage = storage
    }

    private static func generate(into directory: URL, storage: TemporaryDirectory) throws -> TestPKI {
        let script = try RepositoryRoot.locate().appendingPathComponent("scripts/gen-test-pki.sh")
        let bash = CommandRunner(executable: URL(fileURLWithPath: "/bin/bash"))
        let result = bash.run([script.path, directory.path], timeout: 180)
        guard result.succeeded else {
            throw Failure.generationFailed(
                script: script.path, exitCode: result.exitCode, stderr: result.stderr)
        }
        let passwordFile = directory.appendingPathComponent("password.txt")
        guard let text = try? String(contentsOf: passwordFile, encoding: .utf8) else {
            throw Failure.missingFile(path: passwordFile.path)
        }
        let password = text.trimmingCharacters(in: .newlines)
        return TestPKI(directory: directory, password: password, storage: storage)
    }
}
