/// The config.json that `mtls-mirror init` proposes, built from what the handshake showed.
///
/// A plain value rendered to JSON text with `$comment` keys explaining each choice (the loader
/// ignores keys starting with `$`). Key order is kept, so the file reads top to bottom.
struct StarterConfig: Equatable {
    /// The trust policy proposed for the site.
    enum Trust: Equatable {
        /// The chain verified against the system store (`cacert` empty) or the given CA files:
        /// keep that check, and pin the leaf's and the issuing CA's keys as well.
        case verifiedChain(cacert: [String], pins: [String])
        /// The chain did not verify (self-signed or private CA): pin the certificate itself,
        /// saved in `certificateFile`.
        case pinnedCertificate(certificateFile: String, verifyHost: Bool)
    }

    var name: String
    var start: String
    var certificate: String
    var key: String?
    /// The password reference, `{"env": …}` or `{"file": …}`; never a value.
    var password: PasswordReference?
    var trust: Trust
    var output: String = "output"

    /// The JSON text.
    var json: String { render(document, indent: "") + "\n" }

    private indirect enum Node {
        case string(String)
        case bool(Bool)
        case int(Int)
        case array([Node])
        case object([(String, Node)])
    }

    private var document: Node {
        var identity: [(String, Node)] = [
            ("$comment", .string("The client certificate. The password is referenced (env or file), never written here.")),
            ("cert", .string(certificate)),
        ]
        if let key { identity.append(("key", .string(key))) }
        switch password {
        case .environment(let variable)?: identity.append(("password", .object([("env", .string(variable))])))
        case .file(let path)?: identity.append(("password", .object([("file", .string(path))])))
        case .prompt?: identity.append(("password", .string("prompt")))
        case nil: break
        }
        let site: [(String, Node)] = [
            ("name", .string(name)),
            ("start", .array([.string(start)])),
            ("identity", .object(identity)),
            ("trust", .object([("default", trustPolicy)])),
            ("scope", .object([
                ("$comment", .string("Defaults: everything on the start host and port, robots.txt obeyed. Add \"depth\", \"include\" or \"exclude\" to narrow it.")),
                ("noParent", .bool(false)),
                ("robots", .bool(true)),
            ])),
        ]
        return .object([
            ("$comment", .string("Written by `mtls-mirror init` from one handshake with \(start). Review it, then run `mtls-mirror mirror`.")),
            ("output", .string(output)),
            ("jobs", .int(8)),
            ("sites", .array([.object(site)])),
        ])
    }

    private var trustPolicy: Node {
        switch trust {
        case let .verifiedChain(cacert, pins):
            var chain: [(String, Node)] = [("type", .string("default"))]
            if !cacert.isEmpty { chain.append(("cacert", .array(cacert.map(Node.string)))) }
            return .object([
                ("$comment", .string("The server's chain verified against \(cacert.isEmpty ? "the system CA store" : "the given CA file"). "
                    + "Both checks must pass: the chain, and a key pin of the server (first) or of its issuing CA (second). "
                    + "Pinning the CA's key too keeps the config working when the server's certificate is renewed with a new key.")),
                ("type", .string("composite")),
                ("policies", .array([.object(chain), .object([("type", .string("publicKeys")), ("pins", .array(pins.map(Node.string)))])])),
            ])
        case let .pinnedCertificate(file, verifyHost):
            var policy: [(String, Node)] = [
                ("$comment", .string("The server's chain did NOT verify against a CA (self-signed or a private CA), so this pins the exact "
                    + "certificate the server presented, saved in \(file). When the server's certificate changes, fetching fails "
                    + "until you check the new one (mtls-mirror inspect) and replace the file. If you have the private CA, "
                    + "use {\"type\": \"default\", \"cacert\": [\"ca.pem\"]} instead.")),
                ("type", .string("pinnedCertificates")),
                ("certificates", .array([.string(file)])),
            ]
            if !verifyHost { policy.append(("verifyHost", .bool(false))) }
            return .object(policy)
        }
    }

    private func render(_ node: Node, indent: String) -> String {
        let inner = indent + "  "
        switch node {
        case .string(let text): return Self.quote(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .array(let items):
            if items.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                return "[" + items.map { render($0, indent: inner) }.joined(separator: ", ") + "]"
            }
            return "[\n" + items.map { inner + render($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            return "{\n" + members.map { inner + Self.quote($0.0) + ": " + render($0.1, indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + "}"
        }
    }

    /// A JSON string literal (the config reader's own quoting, so both agree).
    static func quote(_ text: String) -> String { ConfigJSON.quoted(text) }
}
