import Foundation
import MirrorCore
import MirrorTestSupport

/// The throwaway PKI made by `scripts/gen-test-pki.sh`, generated once per test process into a
/// fresh temporary folder.
enum TestPKI {
    /// The default password of the script.
    static let password = "Sesame-T3st-Pa55"

    /// The folder holding the PKI files, or the reason it could not be made.
    /// The shared per-process PKI of MirrorTestSupport (scripts/gen-test-pki.sh, run once).
    static let directory: Result<String, PKIError> = Result {
        try MirrorTestSupport.TestPKI.shared().directory.path
    }.mapError { PKIError(description: "\($0)") }

    struct PKIError: Error, CustomStringConvertible {
        var description: String
    }

    static func path(_ name: String) throws -> String {
        try directory.get() + "/" + name
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
