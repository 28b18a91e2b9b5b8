import Foundation
import MirrorCore
import MirrorStore
import MirrorTestSupport
import Testing
@testable import MirrorCrawler
#if canImport(Glibc)
import Glibc
#endif

/// How the rewrite phase treats files: the original keeps its inode under its raw name, the
/// rewritten bytes get a new file, and a raw name once made is never replaced (documents with
/// the same bytes share it while other tasks link it).
@Suite("Document rewrite on disk")
struct DocumentRewriteFilesTests {
    static let css = Array(".banner { background: url(banner.png) }\n".utf8)
    static let sha = "0123456789abcdef"

    static func document(_ path: String, url: String, kind: CrawlState.DocumentKind = .css) throws -> CrawlState.Document {
        CrawlState.Document(url: try webURL(url), localPath: path, kind: kind, contentType: "text/css", sha256: sha)
    }

    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test("documents with the same bytes share a raw name that is never replaced")
    func sharedRawNameIsNeverReplaced() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fileSystem = try SecureFileSystem(root: folder.path + "/snapshot", syncEachFile: false)
        try fileSystem.write(Self.css, to: "docs/s00/section.css")
        try fileSystem.write(Self.css, to: "docs/s01/section.css")
        let paths = ["https://example.com/docs/s00/banner.png": "docs/s00/banner.png",
                     "https://example.com/docs/s01/banner.png": "docs/s01/banner.png"]
        let directories = CreatedDirectories()
        let first = try Self.document("docs/s00/section.css", url: "https://example.com/docs/s00/section.css")
        let second = try Self.document("docs/s01/section.css", url: "https://example.com/docs/s01/section.css")
        let raw = fileSystem.absolutePath(SecureFileSystem.rawPath(sha256: Self.sha))
        #expect(try DocumentPipeline.rewrite(first, fileSystem: fileSystem, directories: directories, localPath: { paths[$0] }) == false)
        let rawInode = try #require(Self.inode(raw))
        #expect(rawInode == Self.inode(fileSystem.absolutePath(first.localPath)), "unchanged: the original itself")
        #expect(try DocumentPipeline.rewrite(second, fileSystem: fileSystem, directories: directories, localPath: { paths[$0] }) == false)
        #expect(Self.inode(raw) == rawInode, "the raw name kept the first document's inode")
        #expect(try fileSystem.read(first.localPath) == Self.css)
        #expect(try fileSystem.read(second.localPath) == Self.css)
    }

    @Test("a changed document gets a new private file; its original stays under the raw name")
    func changedDocumentGetsANewFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fileSystem = try SecureFileSystem(root: folder.path + "/snapshot", syncEachFile: false)
        let original = Array("a { background: url(/img/x.png) }".utf8)
        try fileSystem.write(original, to: "css/site.css")
        let originalInode = try #require(Self.inode(fileSystem.absolutePath("css/site.css")))
        let document = try Self.document("css/site.css", url: "https://example.com/css/site.css")
        let changed = try DocumentPipeline.rewrite(document, fileSystem: fileSystem, directories: CreatedDirectories(),
                                          localPath: { ["https://example.com/img/x.png": "img/x.png"][$0] })
        #expect(changed)
        #expect(try fileSystem.read("css/site.css") == Array("a { background: url(../img/x.png) }".utf8))
        #expect(try fileSystem.read(SecureFileSystem.rawPath(sha256: Self.sha)) == original)
        #expect(Self.inode(fileSystem.absolutePath(SecureFileSystem.rawPath(sha256: Self.sha))) == originalInode)
        #expect(Self.inode(fileSystem.absolutePath("css/site.css")) != originalInode)
        var info = stat()
        #expect(lstat(fileSystem.absolutePath("css/site.css"), &info) == 0 && info.st_mode & 0o777 == 0o600)
        let entries = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
        #expect(!entries.isEmpty && !entries.contains { $0.contains(".rewrite:") })
    }

    @Test("a document known only by its raw name (a 304) is written under its own name")
    func revalidatedDocumentIsWritten() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fileSystem = try SecureFileSystem(root: folder.path + "/snapshot", syncEachFile: false)
        try fileSystem.write(Self.css, to: SecureFileSystem.rawPath(sha256: Self.sha))
        let document = try Self.document("docs/s02/section.css", url: "https://example.com/docs/s02/section.css")
        #expect(try DocumentPipeline.rewrite(document, fileSystem: fileSystem, directories: CreatedDirectories(),
                                    localPath: { ["https://example.com/docs/s02/banner.png": "docs/s02/banner.png"][$0] }) == false)
        #expect(try fileSystem.read("docs/s02/section.css") == Self.css)
        #expect(Self.inode(fileSystem.absolutePath("docs/s02/section.css"))
            == Self.inode(fileSystem.absolutePath(SecureFileSystem.rawPath(sha256: Self.sha))))
    }

    @Test("a document missing under both names is an error, not a silent skip")
    func missingDocumentFails() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fileSystem = try SecureFileSystem(root: folder.path + "/snapshot", syncEachFile: false)
        let document = try Self.document("gone.css", url: "https://example.com/gone.css")
        #expect(throws: StoreError.self) {
            try DocumentPipeline.rewrite(document, fileSystem: fileSystem, directories: CreatedDirectories(), localPath: { _ in nil })
        }
    }
}
