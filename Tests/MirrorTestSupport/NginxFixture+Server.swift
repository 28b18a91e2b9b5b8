import Foundation

extension NginxFixture {
    /// One `server` block of the fixture. Each gets its own loopback port.
    ///
    /// Every block serves the same docroot (``NginxFixture/site``) and the same helper
    /// locations:
    /// - `/` static files from the docroot;
    /// - `/whoami` answers 200 with `$ssl_client_s_dn` as `text/plain` (RFC 2253, e.g.
    ///   `O=mtls-mirror tests,CN=mirror-client-1`; empty when no certificate was sent);
    /// - `/status/CODE` answers with that status, for the codes in ``NginxFixture/statusCodes``;
    /// - `/redirect?to=URL` answers 302 with `Location: URL` (pass the URL unencoded); likewise
    ///   `/redirect/301`, `/redirect/303`, `/redirect/307` and `/redirect/308`.
    public enum Server: String, CaseIterable, Sendable, Hashable {
        /// The normal mTLS site: `server-chain.pem`, client certificate required
        /// (`ssl_verify_client on`, CA `client-root.pem`, depth 2), TLS 1.2 and 1.3, HTTP/2.
        case mtls
        /// Like ``mtls`` but presenting `server-expired-chain.pem` (expired in 2021).
        case expired
        /// Like ``mtls`` but presenting `server-wronghost-chain.pem` (SAN `wrong.example` only).
        case wrongHost
        /// Like ``mtls`` but presenting `server-revoked-chain.pem` (listed in `server-crl.pem`).
        case revoked
        /// Like ``mtls`` but presenting the self-signed `server-selfsigned.pem`.
        case selfSigned
        /// "Another host" for redirect tests: `server-chain.pem`, no client certificate needed.
        ///
        /// It still *asks* for one (`ssl_verify_client optional_no_ca`, nothing verified) so
        /// that a client that leaks its identity to it is caught: every request's
        /// `$ssl_client_s_dn` goes to `client-subjects.log`, read with
        /// ``NginxFixture/loggedClientSubjects(atLeast:timeout:)``.
        case plainTLS
        /// Accepts any or no client certificate (`ssl_verify_client optional_no_ca`); `/whoami`
        /// tells which identity was sent.
        case optionalClient

        /// The certificate chain file and key file from the test PKI that this block presents.
        public var certificateFiles: (chain: String, key: String) {
            switch self {
            case .mtls, .plainTLS, .optionalClient: ("server-chain.pem", "server.key")
            case .expired: ("server-expired-chain.pem", "server-expired.key")
            case .wrongHost: ("server-wronghost-chain.pem", "server-wronghost.key")
            case .revoked: ("server-revoked-chain.pem", "server-revoked.key")
            case .selfSigned: ("server-selfsigned.pem", "server-selfsigned.key")
            }
        }

        /// How the block treats client certificates.
        var clientVerification: ClientVerification {
            switch self {
            case .mtls, .expired, .wrongHost, .revoked, .selfSigned: .required
            case .plainTLS, .optionalClient: .requestedNotVerified
            }
        }
    }

    /// The status codes answered under `/status/CODE`.
    public static let statusCodes: [Int] = [
        200, 201, 202, 204, 400, 401, 403, 404, 405, 408, 410, 429, 500, 501, 502, 503, 504,
    ]

    /// Settings beyond the list of server blocks.
    public struct Options: Sendable {
        /// Seconds to wait for every port to accept TCP before giving up.
        public var startupTimeout: TimeInterval
        /// Seconds ``NginxFixture/stop()`` waits after `SIGQUIT` before `SIGKILL`.
        public var shutdownTimeout: TimeInterval
        /// Extra directives placed in the `http` block (escape hatch for special tests).
        public var extraHTTPDirectives: String
        /// Extra directives placed in every `server` block, before the locations.
        public var extraServerDirectives: String
        /// Whether the blocks offer HTTP/2 (ALPN `h2`); without it clients speak HTTP/1.1.
        public var http2: Bool

        /// Creates options; the defaults suit almost every test.
        ///
        /// - Parameters:
        ///   - startupTimeout: Seconds to wait for the ports to accept TCP.
        ///   - shutdownTimeout: Seconds between `SIGQUIT` and `SIGKILL` when stopping.
        ///   - extraHTTPDirectives: Directives appended to the `http` block.
        ///   - extraServerDirectives: Directives added to every `server` block.
        ///   - http2: Whether the blocks offer HTTP/2.
        public init(
            startupTimeout: TimeInterval = 10, shutdownTimeout: TimeInterval = 5,
            extraHTTPDirectives: String = "", extraServerDirectives: String = "", http2: Bool = true
        ) {
            self.startupTimeout = startupTimeout
            self.shutdownTimeout = shutdownTimeout
            self.extraHTTPDirectives = extraHTTPDirectives
            self.extraServerDirectives = extraServerDirectives
            self.http2 = http2
        }
    }

    /// Which of the test URLs' host names to use.
    public enum Host: String, Sendable {
        /// `localhost`, which the test server certificates name.
        case localhost
        /// `127.0.0.1`, also in the test server certificates' SANs.
        case ipv4 = "127.0.0.1"
    }

    enum ClientVerification {
        case required
        case requestedNotVerified
    }
}
