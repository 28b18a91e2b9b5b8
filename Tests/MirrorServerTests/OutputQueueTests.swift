import Foundation
import MirrorTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MirrorServer

/// Opens `text` written to a fresh file as an ``OpenFile``.
private func openFile(_ directory: TemporaryDirectory, _ name: String, _ text: String) throws -> OpenFile {
    let path = directory.path + "/" + name
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    try #require(fd >= 0)
    var info = stat()
    try #require(fstat(fd, &info) == 0)
    return OpenFile(descriptor: fd, metadata: FileMetadata(info), relativePath: name)
}

/// Everything queued, as the loop would send it (files read whole).
private func drain(_ queue: inout OutputQueue) -> [UInt8] {
    var out: [UInt8] = []
    while true {
        switch queue.leading {
        case .none:
            return out
        case .bytes:
            let count = queue.withUnsentBytes { unsent in
                out.append(contentsOf: unsent.prefix(3))  // small steps: offsets must hold
                return min(3, unsent.count)
            }
            queue.consumeBytes(count)
        case .file(let file, let range):
            var bytes = [UInt8](repeating: 0, count: Int(range.count))
            _ = bytes.withUnsafeMutableBytes { OutputQueue.read(file, range, into: $0) }
            out += bytes
            queue.consumeFile(Int64(range.count))
        }
    }
}

@Suite("Output queue and byte formatting")
struct OutputQueueTests {
    @Test("numbers and validators are written as the string formatters write them",
          arguments: [Int64(0), 7, 10, 255, 1_234_567_890, -1, -31, Int64.max, Int64.min + 1])
    func numbers(_ value: Int64) {
        var decimal: [UInt8] = []
        decimal.append(decimal: value)
        #expect(String(decoding: decimal, as: UTF8.self) == String(value))
        var hex: [UInt8] = []
        hex.append(hex: value)
        #expect(String(decoding: hex, as: UTF8.self) == String(value, radix: 16))
        let metadata = FileMetadata(size: value, modifiedSeconds: -value, modifiedNanoseconds: 999_999_999, inode: value.magnitude)
        let expected = "\"\(String(value.magnitude, radix: 16))-\(String(value, radix: 16))-\(String(-value, radix: 16))\(String(999_999_999, radix: 16))\""
        #expect(metadata.entityTag == expected)
    }

    @Test("HTTP dates format as IMF-fixdate and parse back", arguments: [Int64(0), 784_111_777, 951_782_400, 4_102_444_799])
    func dates(_ seconds: Int64) throws {
        let text = HTTPDate.format(seconds)
        #expect(text.utf8.count == 29)
        #expect(text.hasSuffix(" GMT"))
        #expect(HTTPDate.parse(text) == seconds)
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    @Test("a response head ends in one blank line and carries the date and security headers")
    func head() {
        var out: [UInt8] = Array("earlier".utf8)
        var response = Response(status: 404, headers: HTTPHeaders([("X-A", "1")]), body: .bytes(Array("abc".utf8)))
        response.appendHead(to: &out, keepAlive: false, dateLines: Response.dateLines("D"))
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.hasPrefix("earlierHTTP/1.1 404 Not Found\r\nDate: D\r\nServer: mtls-mirror\r\nX-A: 1\r\nContent-Length: 3\r\n"))
        #expect(text.contains("X-Content-Type-Options: nosniff\r\n"))
        #expect(text.hasSuffix("Connection: close\r\n\r\n"))
        response.status = 304
        var notModified: [UInt8] = []
        response.appendHead(to: &notModified, keepAlive: true, dateLines: [])
        let second = String(decoding: notModified, as: UTF8.self)
        #expect(!second.contains("Content-Length") && !second.contains("Connection: close"))
    }

    @Test("bytes, small files and large files leave in order; small files are inlined")
    func order() throws {
        let directory = try TemporaryDirectory()
        let small = try openFile(directory, "small", "SMALL")
        let large = try openFile(directory, "large", String(repeating: "L", count: Int(OutputQueue.inlineFileLimit) + 1))
        var queue = OutputQueue()
        queue.append(Array("head1|".utf8))
        let smallQueued = queue.append(file: small, range: 1..<4)
        #expect(smallQueued)
        #expect(!queue.isBackpressured)
        #expect(queue.items.isEmpty)  // all still in the tail
        let largeQueued = queue.append(file: large, range: 0..<large.metadata.size)
        #expect(largeQueued)
        #expect(queue.isBackpressured)  // a file range is queued
        queue.appendBytes { $0.append(contentsOf: "|tail".utf8) }
        #expect(queue.items.count == 2)
        let sent = drain(&queue)
        #expect(String(decoding: sent, as: UTF8.self) == "head1|MAL" + String(repeating: "L", count: Int(OutputQueue.inlineFileLimit) + 1) + "|tail")
        #expect(queue.isEmpty && !queue.isBackpressured && queue.bufferedBytes == 0)
        queue.append(Array("next".utf8))
        #expect(String(decoding: drain(&queue), as: UTF8.self) == "next")
    }

    @Test("a shared file keeps its first whole read; an unshared one is read every time")
    func keptContents() throws {
        let directory = try TemporaryDirectory()
        let shared = try openFile(directory, "shared", "v1")
        shared.keepsContents = true
        let unshared = try openFile(directory, "unshared", "u1")
        var queue = OutputQueue()
        let sharedQueued = queue.append(file: shared, range: 0..<2)
        #expect(sharedQueued)
        let unsharedQueued = queue.append(file: unshared, range: 0..<2)
        #expect(unsharedQueued)
        #expect(shared.contents == Array("v1".utf8))
        #expect(unshared.contents == nil)
        // Rewrite both in place (same inode): only the unshared one shows the change.
        try "w2".write(toFile: directory.path + "/shared", atomically: false, encoding: .utf8)
        try "u2".write(toFile: directory.path + "/unshared", atomically: false, encoding: .utf8)
        let sharedAgain = queue.append(file: shared, range: 0..<2)
        #expect(sharedAgain)
        let unsharedAgain = queue.append(file: unshared, range: 0..<2)
        #expect(unsharedAgain)
        #expect(String(decoding: drain(&queue), as: UTF8.self) == "v1u1v1u2")
    }

    @Test("a small file that shrank after it was opened fails its response instead of sending zeros")
    func shrunkFile() throws {
        let directory = try TemporaryDirectory()
        let file = try openFile(directory, "f", "0123456789")
        #expect(truncate(directory.path + "/f", 4) == 0)
        var queue = OutputQueue()
        queue.append(Array("h".utf8))
        let shrunkQueued = queue.append(file: file, range: 0..<10)
        #expect(!shrunkQueued)
        #expect(String(decoding: drain(&queue), as: UTF8.self) == "h")
    }

    @Test("the file memo remembers up to its capacity and forgets everything at once")
    func memo() throws {
        let directory = try TemporaryDirectory()
        let file = try openFile(directory, "m", "m")
        var memo = FileMemo()
        #expect(memo["/m"] == nil)
        for index in 0..<(FileMemo.capacity + 5) {
            memo.remember(FileMemo.Entry(file: file, contentType: "t\(index)"), for: "/p\(index)")
        }
        #expect(file.keepsContents)
        #expect(memo["/p0"]?.contentType == "t0")
        #expect(memo["/p\(FileMemo.capacity - 1)"] != nil)
        #expect(memo["/p\(FileMemo.capacity)"] == nil)
        memo.removeAll()
        #expect(memo["/p0"] == nil)
    }

    @Test("content types by extension: last path component only, case-insensitive")
    func mimeTypes() {
        let table = MIMETypes(mimeTypesFile: "")
        #expect(table.type(forFileName: "dir/x.CSS") == "text/css")
        #expect(table.type(forFileName: "a.css/readme") == MIMETypes.fallback)
        #expect(table.type(forFileName: "dir/.hidden") == MIMETypes.fallback)
        #expect(table.type(forFileName: "v1.2/app.min.js") == "text/javascript")
        #expect(table.type(forFileName: "x.") == MIMETypes.fallback)
    }
}
