import Foundation
import MirrorCore
import MirrorServer
import MirrorStore
import MirrorTLS
#if canImport(Glibc)
import Glibc
#endif

/// The demo's stand-in for a protected intranet: mtls-mirror's own ``MirrorServer`` on
/// loopback, over TLS with the demo server certificate, REQUIRING a client certificate issued
/// by the demo client CA, serving ``DemoSite`` from a private temporary folder.
///
/// ``stop()`` (also run by `deinit`) stops the server and removes the folder.
final class DemoOrigin: @unchecked Sendable {
    /// The temporary folder holding the site (`<folder>/site/current -> snapshots/sample`).
    let folder: String
    /// The port it listens on.
    let port: UInt16
    private let server: MirrorServer
    private let lock = NSLock()
    private var stopped = false

    /// The start URL: `https://localhost:PORT/`.
    var url: String { "https://localhost:\(port)/" }

    /// Writes the site and starts the server.
    ///
    /// - Parameters:
    ///   - pki: the certificates: the server presents `server-chain.pem`/`server.key` and accepts
    ///     only clients from `client-ca.pem`.
    ///   - port: the port; 0 picks a free one.
    ///   - logger: origin requests are logged at debug level, with the client certificate's subject.
    /// - Throws: ``DemoError`` when the folder or a file cannot be written, ``StoreError`` when
    ///   the `current` link cannot be made, and ``ServerError`` when the server cannot start.
    init(pki: DemoPKI, port: UInt16, logger: Logger) throws {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base + "/mtls-mirror-demo-origin.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw DemoError.temporaryFolder(path: base, reason: String(cString: strerror(errno)))
        }
        folder = String(cString: created)
        do {
            let siteDirectory = folder + "/site"
            let store = try SnapshotStore(siteDirectory: siteDirectory)
            let snapshot = siteDirectory + "/" + SnapshotStore.snapshotsFolder + "/sample"
            guard mkdir(snapshot, 0o700) == 0 else {
                throw DemoError.temporaryFolder(path: snapshot, reason: String(cString: strerror(errno)))
            }
            try DemoSite.write(into: snapshot)
            try store.point(currentAt: "sample")

            var configuration = ServerConfiguration(layout: .single(ServedSite(name: "origin", directory: siteDirectory)))
            configuration.host = "127.0.0.1"
            configuration.port = port
            configuration.tls = ServerTLSConfiguration(
                certificateChainFile: pki.serverChainFile, privateKeyFile: pki.serverKeyFile, clientCAFile: pki.clientCAFile)
            configuration.accessLog = { entry in logger.debug("origin: " + entry.commonLogFormat) }
            server = MirrorServer(configuration: configuration)
            self.port = try server.start()
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    deinit { stop() }

    /// Stops the server and removes the temporary folder. Safe to call more than once.
    func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
