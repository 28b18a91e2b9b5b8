import Foundation
import MirrorTestSupport
import Testing

/// The arrows between the modules (README, "Development"): each module may import only what
/// this table allows, so that the document layer never fetches, the store never talks to the
/// network, the trust layer knows nothing of crawling, the render layer knows no certificate,
/// and only the CLI knows the command line and config.json. A new module must be added here.
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    /// Module → the project modules (Swift and C) its sources may import.
    static let allowed: [String: Set<String>] = [
        "MirrorCore": ["CMirrorShims", "COpenSSL"],
        "MirrorTLS": ["MirrorCore", "CMirrorShims", "COpenSSL", "CLibP11"],
        "MirrorHTTP": ["MirrorCore", "MirrorTLS", "CMirrorShims", "CCurl", "CZlib", "CBrotli", "CLibDeflate"],
        "MirrorDocument": ["MirrorCore", "CMirrorShims", "CLibXML2", "CZlib"],
        "MirrorStore": ["MirrorCore", "CMirrorShims", "CSQLite"],
        "MirrorRender": ["MirrorCore", "MirrorDocument", "CMirrorShims"],
        "MirrorArchive": ["MirrorCore", "MirrorHTTP", "MirrorDocument", "MirrorStore", "CMirrorShims", "CZlib", "CLibDeflate"],
        "MirrorCrawler": ["MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorRender", "MirrorArchive",
                          "CMirrorShims"],
        "MirrorServer": ["MirrorCore", "MirrorStore", "MirrorDocument", "MirrorArchive", "CMirrorShims", "COpenSSL"],
        "MirrorScheduler": ["MirrorCore", "MirrorStore"],
        "MirrorCLI": ["MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorCrawler", "MirrorServer",
                      "MirrorScheduler", "MirrorRender", "MirrorArchive", "CMirrorShims"],
        "mtls-mirror": ["MirrorCLI", "MirrorCore"],
    ]

    /// The project's own module names: everything under Sources/.
    static func projectModules(_ sources: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") })
    }

    /// `import X` / `@testable import X` / `import struct X.Y` lines of a file.
    static func imports(in file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ").map(String.init)
            if words.first == "@testable" || words.first == "@_exported" || words.first == "@preconcurrency" { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let name = words.count >= 3 && ["struct", "class", "enum", "func", "protocol"].contains(words[1]) ? words[2] : words[1]
            return String(name.split(separator: ".").first ?? "")
        }
    }

    @Test func everyModuleImportsOnlyWhatItsArrowsAllow() throws {
        let sources = try RepositoryRoot.locate().appendingPathComponent("Sources")
        let modules = try Self.projectModules(sources)
        let swiftModules = modules.filter { name in
            let enumerator = FileManager.default.enumerator(atPath: sources.appendingPathComponent(name).path)
            return enumerator?.contains { ($0 as? String)?.hasSuffix(".swift") == true } == true
        }
        #expect(swiftModules.count >= 10, "\(swiftModules)")
        for module in swiftModules.sorted() {
            let allowed = try #require(Self.allowed[module], "module \(module) has no entry in the boundary table")
            let root = sources.appendingPathComponent(module)
            for case let relative as String in FileManager.default.enumerator(atPath: root.path) ?? .init() where relative.hasSuffix(".swift") {
                for name in try Self.imports(in: root.appendingPathComponent(relative)) where modules.contains(name) {
                    #expect(allowed.contains(name), "\(module)/\(relative) imports \(name), which \(module) must not")
                }
            }
        }
    }

    @Test func theCheckerSeesAForbiddenImport() throws {
        let folder = try TemporaryDirectory(prefix: "boundaries")
        let file = folder.url.appendingPathComponent("Bad.swift")
        try Data("import Foundation\n@testable import MirrorHTTP\nimport struct MirrorStore.Manifest\n// import MirrorCLI\n".utf8).write(to: file)
        let found = try Self.imports(in: file)
        #expect(found == ["Foundation", "MirrorHTTP", "MirrorStore"])
        #expect(!Self.allowed["MirrorDocument", default: []].contains("MirrorHTTP"), "the document layer never fetches")
        #expect(!Self.allowed["MirrorStore", default: []].contains("MirrorHTTP"), "the store never talks to the network")
        #expect(!Self.allowed["MirrorTLS", default: []].contains("MirrorCrawler"), "trust knows nothing of crawling")
        #expect(!Self.allowed["MirrorRender", default: []].contains("MirrorTLS"), "the render layer knows no certificate")
        #expect(Self.allowed.filter { $0.key != "mtls-mirror" && $0.value.contains("MirrorCLI") }.isEmpty, "only the tool imports the CLI")
    }
}
