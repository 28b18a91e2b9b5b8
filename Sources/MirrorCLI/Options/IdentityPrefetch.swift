import Foundation
import MirrorCore
import MirrorTLS

/// The client identity of `mirror URL --cert FILE`, read on a thread of its own from the moment
/// the command line is parsed (issue #27).
///
/// A PKCS#12 file costs three key derivations (5–9 ms on this project's VM), and the run's first
/// connection waits for them. Read where ``TLSOptions/loadIdentity(logger:)`` asks for it, the
/// read started only after the Swift runtime had moved the command to its thread pool, the first
/// transfer engine's thread and libcurl's loading thread had been made, and the command's options
/// and trust had been set up: 2.2–2.7 ms after `main`. Started here, it begins before all that.
///
/// Only what the command line says is read, and only once: a request names the file, the key,
/// the type and where the password comes from, and ``take(_:)`` hands the outcome over only to
/// the same request. Nothing is prefetched for a prompt (a person answers it, on the command's
/// own thread) or a token (its PIN and session belong to ``TokenIdentityLoader``). The outcome is
/// what ``MirrorTLS/ClientIdentity/load(certificate:key:type:password:now:)`` would have given:
/// a wrong password, an expired certificate or an unreadable file fail the same way, with the
/// same error, when the command asks for the identity.
final class IdentityPrefetch: @unchecked Sendable {
    /// The options that decide the identity.
    struct Request: Equatable, Sendable {
        let certificate: String
        let key: String?
        let type: CertificateType?
        let password: PasswordSource?
    }

    /// The process's prefetch (one command per process).
    static let shared = IdentityPrefetch()

    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var request: Request?
    private var taken = false
    private var outcome: Result<ClientIdentity, IdentityError>?

    /// Starts reading the identity `request` names on a thread of its own, and returns at once.
    /// Only the first call starts anything; a request whose password comes from a prompt is
    /// ignored.
    func start(_ request: Request) {
        if case .prompt = request.password { return }
        lock.lock()
        defer { lock.unlock() }
        guard self.request == nil else { return }
        self.request = request
        let started = NativeThread.detach(name: "mm-identity") { [self] in
            let result: Result<ClientIdentity, IdentityError>
            do throws(IdentityError) {
                let secret = try request.password?.resolve(forFile: request.certificate)
                result = .success(try ClientIdentity.load(
                    certificate: request.certificate, key: request.key, type: request.type, password: secret))
            } catch {
                result = .failure(error)
            }
            lock.lock()
            outcome = result
            lock.unlock()
            finished.signal()
        }
        // No thread: nothing is prefetched, and the command reads the identity itself.
        if !started { self.request = nil }
    }

    /// The outcome of the read that `request` started, once it is done (this waits); nil when no
    /// read of that same request was started, or its outcome was taken already.
    func take(_ request: Request) -> Result<ClientIdentity, IdentityError>? {
        lock.lock()
        guard self.request == request, !taken else {
            lock.unlock()
            return nil
        }
        taken = true
        lock.unlock()
        finished.wait()
        lock.lock()
        defer { lock.unlock() }
        let result = outcome
        outcome = nil
        return result
    }
}
