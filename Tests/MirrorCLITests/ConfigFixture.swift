import Foundation
import MirrorTestSupport
@testable import MirrorCLI

/// A temporary folder holding a `config.json` and the trust files configs refer to
/// (`ca.pem`, `crl.pem`, `server.pem`, `certs/extra-ca.pem`), written as real files.
final class ConfigFixture {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    /// A valid `sha256//` pin (32 zero bytes).
    static let pin = "sha256//" + String(repeating: "A", count: 43) + "="
    /// Another valid pin.
    static let otherPin = "sha256//" + String(repeating: "B", count: 42) + "A="

    init() throws {
        directory = try TemporaryDirectory(prefix: "config-test")
        try FileManager.default.createDirectory(at: directory.appending("certs"), withIntermediateDirectories: true)
        for file in ["ca.pem", "crl.pem", "server.pem", "certs/extra-ca.pem"] {
            try Data("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8).write(to: directory.appending(file))
        }
    }

    /// Writes `json` as `config.json` and loads it.
    func load(_ json: String, name: String = "config.json") throws(ConfigError) -> MirrorConfig {
        let file = directory.appending(name).path
        do {
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            fatalError("cannot write the fixture: \(error)")
        }
        return try MirrorConfig.load(path: file)
    }

    /// `json` loaded, with the error it throws (or `nil`).
    func error(_ json: String) -> ConfigError? {
        do {
            _ = try load(json)
            return nil
        } catch {
            return error
        }
    }

    /// A one-site config whose site object also contains `extra` (a JSON fragment).
    static func site(_ extra: String) -> String {
        """
        {"sites": [{"name": "intranet", "start": ["https://intranet.example/"]\(extra.isEmpty ? "" : ", " + extra)}]}
        """
    }
}
