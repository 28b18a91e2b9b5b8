import Foundation
import Testing
@testable import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SmallFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "/small-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func aRegularFileIsReadWhole() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/identity.p12"))
        #expect(try SmallFile.read(folder + "/identity.p12").get() == bytes)
        try Data().write(to: URL(fileURLWithPath: folder + "/empty"))
        #expect(try SmallFile.read(folder + "/empty").get() == [])
    }

    @Test func failuresNameTheirCause() throws {
        #expect(SmallFile.read(folder + "/absent") == .failure(.missing))
        #expect(SmallFile.read(folder + "/absent/below") == .failure(.missing))
        #expect(SmallFile.read(folder) == .failure(.unreadable))
        #expect(SmallFile.Failure.missing.reason == "no such file")
        #expect(SmallFile.Failure.unreadable.reason == "permission denied or not a file")
        #expect(SmallFile.Failure.tooLarge(limit: 16 << 20).reason == "larger than 16 MiB")
    }

    @Test func aFileOverTheLimitIsRefused() throws {
        try Data(repeating: 7, count: 3 << 20).write(to: URL(fileURLWithPath: folder + "/big"))
        #expect(SmallFile.read(folder + "/big", limit: 2 << 20) == .failure(.tooLarge(limit: 2 << 20)))
        #expect(try SmallFile.read(folder + "/big", limit: 3 << 20).get().count == 3 << 20)
    }

    /// A shell's `--cert <(vault read …)` hands over a pipe: read until its writer closes it,
    /// and refuse one that never ends within the limit (`/dev/zero`).
    @Test func pipesAreReadUntilTheirEndAndEndlessOnesStopAtTheLimit() throws {
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let payload = Array(repeating: UInt8(ascii: "k"), count: 100_000)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            payload.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        #expect(try SmallFile.read(fifo).get() == payload)
        #expect(SmallFile.read("/dev/zero", limit: 1 << 20) == .failure(.tooLarge(limit: 1 << 20)))
    }
}
