import Foundation
import MirrorCore

/// The throwaway PKI made by `scripts/gen-test-pki.sh`, generated once per test process into a
/// fresh temporary folder.
enum TestPKI {
    /// The default password of the script.
    static let password = "Sesame-T3st-Pa55"

    /// The folder holding the PKI files, or the reason it could not be made.
    static let directory: Result<String, PKIError> = generate()

    struct PKIError: Error, CustomStringConvertible {
        var description: String
    }

    /// The full path of a PKI file. Throws when the PKI could not be generated.
    static func path(_ name: String) throws -> String {
        try directory.get() + "/" + name
    }

    /// The repository root, found from this source file's location.
    static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    private static func generate() -> Result<String, PKIError> {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("mtls-mirror-tls-tests-\(UUID().uuidString)").path
        let script = repositoryRoot + "/scripts/gen-test-pki.sh"
        do {
            let result = try runProcess("/bin/bash", [script, folder])
            guard result.status == 0 else {
                return .failure(PKIError(description: "gen-test-pki.sh exited \(result.status): \(result.output)"))
            }
            return .success(folder)
        } catch {
            return .failure(PKIError(description: "cannot run gen-test-pki.sh: \(error)"))
        }
    }

    /// Runs a program and returns its exit status and combined standard output.
    static func runProcess(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(input) }
        try inputPipe.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
