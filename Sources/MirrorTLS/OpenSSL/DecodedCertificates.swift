import Foundation

/// The OpenSSL certificates read most recently, by the SHA-256 of their DER encoding: a
/// ``CertificateInfo`` is a plain value, and the checks that need an `X509 *` again (the chain
/// verification, the host name check, OCSP) would otherwise decode its DER anew.
///
/// Decoding is the expensive part of a handshake's trust evaluation: `d2i_X509` of an EC
/// certificate builds its key through OpenSSL 3's decoders, 0.2-0.3 ms each, and the default
/// policy decoded three (the leaf and the intermediate for the chain, the leaf again for the
/// host name), about 60 % of the evaluation's time. The server's chain was decoded once
/// already, by OpenSSL, when the handshake read it; ``CertificateInfo/init(_:)`` remembers that
/// certificate here, so that ``CertificateInfo/makeX509()`` finds it.
///
/// Bounded (``capacity`` certificates, the oldest forgotten first) and shared by every thread
/// (a lock): OpenSSL only reads a certificate once it is built, so one `X509 *` may serve
/// several verifications at a time, as OpenSSL's own sessions share their peer's.
final class DecodedCertificates: @unchecked Sendable {
    static let shared = DecodedCertificates()

    /// The most certificates kept: a run's servers' chains and anchors, a few each.
    let capacity: Int
    private let lock = NSLock()
    private var entries: [String: X509Certificate] = [:]
    /// Keys in the order they were added, oldest first (from `head` on).
    private var order: [String] = []
    private var head = 0

    init(capacity: Int = 32) {
        self.capacity = capacity
    }

    /// Remembers `certificate`, whose DER encoding has the SHA-256 `sha256` (lower-case hex).
    func remember(_ certificate: X509Certificate, sha256: String) {
        lock.lock()
        defer { lock.unlock() }
        guard entries.updateValue(certificate, forKey: sha256) == nil else { return }
        order.append(sha256)
        while entries.count > capacity, head < order.count {
            entries[order[head]] = nil
            head += 1
        }
        if head >= capacity {
            order.removeFirst(head)
            head = 0
        }
    }

    /// The certificate whose DER encoding has the SHA-256 `sha256`, if it is remembered.
    func certificate(sha256: String) -> X509Certificate? {
        lock.lock()
        defer { lock.unlock() }
        return entries[sha256]
    }

    /// How many certificates are remembered (for tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}
