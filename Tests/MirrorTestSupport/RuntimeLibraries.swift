import CMirrorShims
import Foundation

/// For the tests of the libraries the tool opens at run time (libcurl, libxml2, Brotli's decoder,
/// libdeflate, libp11): what this process has mapped, what its binary links, and
/// `CMirrorShims_library_open` itself.
public enum RuntimeLibraries {
    /// Why a question about this process could not be answered.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `/proc/self/maps`, read to its end (its size reads as 0, so it is read in pieces).
    public static func processMaps() throws -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { throw Failure(description: "cannot open /proc/self/maps") }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while let piece = try? handle.read(upToCount: 65536), !piece.isEmpty { bytes += piece }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `(NEEDED)` lines of this test binary's dynamic section (`readelf -d`).
    public static func neededByThisBinary() throws -> [String] {
        guard let readelf = CommandRunner.tool(named: "readelf") else {
            throw Failure(description: "readelf is not installed: run scripts/install-deps.sh")
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let dynamic = CommandRunner(executable: readelf).run(["-d", executable])
        guard dynamic.succeeded else { throw Failure(description: "\(dynamic)") }
        return dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
    }

    /// `CMirrorShims_library_open(library, …)` for `symbols`: its status and its error text.
    public static func open(_ library: String, symbols: [String]) -> (status: Int32, error: String) {
        var table = [UnsafeMutableRawPointer?](repeating: nil, count: symbols.count)
        var error = [CChar](repeating: 0, count: 512)
        let names = symbols.map { strdup($0) }
        defer { names.forEach { free($0) } }
        let status = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
            table.withUnsafeMutableBufferPointer { tablePointer in
                CMirrorShims_library_open(library, tablePointer.baseAddress, namePointers.baseAddress, Int32(symbols.count), &error, error.count)
            }
        }
        return (status, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
