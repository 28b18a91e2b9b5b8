import COpenSSL
import Foundation
@testable import MirrorTLS

/// A real TLS handshake between two OpenSSL endpoints joined by a BIO pair: no sockets, no network.
/// The server sends server-chain.pem and requires a client certificate issued under client-root.pem.
final class InMemoryHandshake {
    struct SetupError: Error, CustomStringConvertible { var description: String }

    let serverContext: OpaquePointer
    let clientContext: OpaquePointer
    private(set) var client: OpaquePointer?
    private(set) var server: OpaquePointer?

    init(serverChain: String = "server-chain.pem", serverKey: String = "server.key") throws {
        guard let serverContext = SSL_CTX_new(TLS_server_method()) else { throw SetupError(description: "server SSL_CTX_new") }
        self.serverContext = serverContext
        guard let clientContext = SSL_CTX_new(TLS_client_method()) else {
            SSL_CTX_free(serverContext)
            throw SetupError(description: "client SSL_CTX_new")
        }
        self.clientContext = clientContext
        guard SSL_CTX_use_certificate_chain_file(serverContext, try TestPKI.path(serverChain)) == 1,
              SSL_CTX_use_PrivateKey_file(serverContext, try TestPKI.path(serverKey), SSL_FILETYPE_PEM) == 1,
              SSL_CTX_load_verify_locations(serverContext, try TestPKI.path("client-root.pem"), nil) == 1
        else { throw SetupError(description: "server credentials: \(OpenSSLErrorQueue.drainedText())") }
        SSL_CTX_set_verify(serverContext, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
    }

    deinit {
        if let client { SSL_free(client) }
        if let server { SSL_free(server) }
        SSL_CTX_free(clientContext)
        SSL_CTX_free(serverContext)
    }

    /// Runs the handshake to completion or failure. Returns whether both sides completed.
    func run() throws -> Bool {
        guard let client = SSL_new(clientContext), let server = SSL_new(serverContext) else {
            throw SetupError(description: "SSL_new")
        }
        self.client = client
        self.server = server
        var clientBIO: OpaquePointer?
        var serverBIO: OpaquePointer?
        guard BIO_new_bio_pair(&clientBIO, 0, &serverBIO, 0) == 1 else { throw SetupError(description: "BIO_new_bio_pair") }
        SSL_set_bio(client, clientBIO, clientBIO)
        SSL_set_bio(server, serverBIO, serverBIO)
        SSL_set_connect_state(client)
        SSL_set_accept_state(server)
        var clientDone = false
        var serverDone = false
        for _ in 0..<50 {
            if !clientDone {
                let status = SSL_do_handshake(client)
                if status == 1 { clientDone = true } else if !wantsMore(client, status) { break }
            }
            if !serverDone {
                let status = SSL_do_handshake(server)
                if status == 1 { serverDone = true } else if !wantsMore(server, status) { break }
            }
            if clientDone && serverDone { break }
        }
        _ = OpenSSLErrorQueue.drain()
        return clientDone && serverDone
    }

    private func wantsMore(_ ssl: OpaquePointer, _ status: Int32) -> Bool {
        let error = SSL_get_error(ssl, status)
        return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE
    }

    /// The subject of the client certificate the server received.
    var clientCertificateSubjectSeenByServer: String? {
        guard let server, let peer = SSL_get1_peer_certificate(server) else { return nil }
        return try? CertificateInfo(X509Certificate(taking: peer)).subject
    }
}
