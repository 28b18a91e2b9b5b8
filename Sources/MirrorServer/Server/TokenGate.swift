import MirrorCore

/// Checks the access token of a request, in constant time.
///
/// Accepted: `Authorization: Bearer TOKEN`, the cookie `mtls_mirror_token=TOKEN`, or a
/// `token=TOKEN` query parameter. The query form answers with a 303 to the same URL without
/// the parameter and sets the cookie (`HttpOnly; SameSite=Strict; Path=/`), so a browser can
/// navigate afterwards and the token does not stay in the address bar or the history.
/// Comparison hashes both sides with SHA-256 and compares the digests without early exit.
struct TokenGate {
    static let cookieName = "mtls_mirror_token"

    enum Verdict: Equatable {
        case allowed
        case denied
        case redirect(location: String, cookie: String)
    }

    private let digest: [UInt8]
    private let token: Secret

    init(token: Secret) {
        self.token = token
        digest = SHA256Digest.hash(Array(token.reveal().utf8))
    }

    func matches(_ candidate: some StringProtocol) -> Bool {
        let other = SHA256Digest.hash(Array(candidate.utf8))
        guard other.count == digest.count else { return false }
        var difference: UInt8 = 0
        for index in digest.indices { difference |= digest[index] ^ other[index] }
        return difference == 0
    }

    func check(_ head: HTTPRequestHead) -> Verdict {
        if let authorization = head.headers.first("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].asciiCaseInsensitiveEquals("Bearer"), matches(parts[1].trimmingOWS()) { return .allowed }
        }
        for cookieHeader in head.headers.values("Cookie") {
            for pair in cookieHeader.split(separator: ";") {
                let trimmed = pair.trimmingOWS()
                if trimmed.hasPrefix(Self.cookieName + "="), matches(trimmed.dropFirst(Self.cookieName.count + 1)) { return .allowed }
            }
        }
        if let query = head.query {
            let parameters = query.split(separator: "&", omittingEmptySubsequences: false)
            if let index = parameters.firstIndex(where: { $0.hasPrefix("token=") }), matches(parameters[index].dropFirst(6)) {
                var rest = parameters
                rest.remove(at: index)
                let location = head.path.hasPrefix("/") ? head.path : "/"
                let cookie = "\(Self.cookieName)=\(token.reveal()); Path=/; HttpOnly; SameSite=Strict"
                return .redirect(location: location + (rest.isEmpty ? "" : "?" + rest.joined(separator: "&")), cookie: cookie)
            }
        }
        return .denied
    }
}
