import Foundation
import MirrorCore
import MirrorScheduler

/// A config rewritten for the pods of `schedule --print-kubernetes`, with the files it names
/// sorted into what goes into the ConfigMap and what into each site's Secret.
///
/// - Public files (CA certificates, CRLs, pinned certificates) are read here and go into the
///   ConfigMap under `/etc/mtls-mirror/config/`.
/// - Secret files (the identity, its key, its password, a header's value, a cookie file) are
///   never read: each becomes a key of the site's Secret, mounted at
///   `/etc/mtls-mirror/secrets/SITE/`, and the operator creates the Secret from the file.
///   A secret the config takes from an environment variable becomes a file there too: pods
///   get no secret through their environment.
/// - The output root is the volume's mount, and `serve` listens on every address of its pod,
///   which needs an access token (the serve token Secret).
struct ClusterConfig {
    /// Where the operator's copy of a secret is.
    enum Source: Equatable {
        case file(String)
        case environment(String)
        case prompt
    }

    /// One key of a site's Secret.
    struct SecretFile: Equatable {
        let key: String
        let source: Source
    }

    /// The config as the pods read it.
    private(set) var config: MirrorConfig
    /// The ConfigMap's files other than config.json: key and local path.
    private(set) var publicFiles: [(key: String, source: String)] = []
    /// Each site's Secret keys, by site name.
    private(set) var secrets: [String: [SecretFile]] = [:]
    /// The operator's access token file for serve, when the config names one.
    let serveTokenSource: String?

    /// A ConfigMap holds at most 1 MiB.
    static let configMapLimit = 1 << 20

    /// - Parameters:
    ///   - original: the loaded config (absolute paths).
    ///   - sites: the sites of the fleet; the pods' config holds only these.
    init(_ original: MirrorConfig, sites: [SiteConfig]) {
        typealias Layout = KubernetesFleet.PodLayout
        config = original
        config.output = Layout.outputRoot
        config.warnings = []
        serveTokenSource = original.serve.tokenFile
        config.serve.bind = "0.0.0.0"
        config.serve.allowRemote = true
        config.serve.tokenFile = Layout.serveTokenFolder + "/token"
        config.serve.accessLog = nil
        var keyOfPath: [String: String] = [:]
        var rewritten: [SiteConfig] = []
        for var site in sites {
            var files: [SecretFile] = []
            let name = site.name
            func secret(_ key: String, _ source: Source) -> String {
                files.append(SecretFile(key: key, source: source))
                return Layout.secretPath(site: name, key: key)
            }
            func reference(_ key: String, _ password: PasswordReference) -> PasswordReference {
                switch password {
                case .file(let path): return .file(secret(key, .file(path)))
                case .environment(let variable): return .file(secret(key, .environment(variable)))
                case .prompt: return .file(secret(key, .prompt))
                }
            }
            if var identity = site.identity {
                identity.certificate = secret("identity", .file(identity.certificate))
                if let key = identity.key { identity.key = secret("key", .file(key)) }
                if let password = identity.password { identity.password = reference("password", password) }
                site.identity = identity
            }
            for index in site.http.headers.indices {
                if case .reference(let password) = site.http.headers[index].value {
                    site.http.headers[index].value = .reference(reference("header-\(index + 1)", password))
                }
            }
            if let cookies = site.http.cookies { site.http.cookies = secret("cookies", .file(cookies)) }
            site.trust = site.trust.mappingFiles { path in
                if let key = keyOfPath[path] { return Layout.configFolder + "/" + key }
                let key = "file-\(keyOfPath.count + 1)-" + Self.keySafe((path as NSString).lastPathComponent)
                keyOfPath[path] = key
                publicFiles.append((key, path))
                return Layout.configFolder + "/" + key
            }
            secrets[site.name] = files
            rewritten.append(site)
        }
        config.sites = rewritten
    }

    /// The ConfigMap's files: `config.json`, then the public files, read now.
    /// - Throws: ``UsageError`` when a file cannot be read or the whole is over a ConfigMap's 1 MiB.
    func configFiles() throws -> [KubernetesFleet.ConfigFile] {
        var files = [KubernetesFleet.ConfigFile(key: "config.json", bytes: Array(config.dumpRedacted().utf8))]
        for file in publicFiles {
            guard let data = FileManager.default.contents(atPath: file.source) else {
                throw UsageError("cannot read \(file.source), which the config names", hint: "check the file's path and permissions")
            }
            files.append(KubernetesFleet.ConfigFile(key: file.key, bytes: Array(data)))
        }
        let size = files.reduce(0) { $0 + $1.key.utf8.count + $1.bytes.count }
        guard size <= Self.configMapLimit else {
            throw UsageError("the config and the CA, CRL and certificate files it names come to \(size) bytes, over a ConfigMap's 1 MiB",
                             hint: "name fewer or smaller files (a CRL of the issuing CA only), or split the sites over two configs")
        }
        return files
    }

    /// The `kubectl create secret` command of a site's Secret; `nil` when it needs none.
    /// - Parameters:
    ///   - site: the site.
    ///   - name: the Secret's name.
    ///   - namespace: `-n NAMESPACE`, when given.
    func secretCommand(site: String, name: String, namespace: String?) -> String? {
        guard let files = secrets[site], !files.isEmpty else { return nil }
        let sources = files.map { file -> String in
            switch file.source {
            case .file(let path): return "--from-file=\(file.key)=\(Self.shellQuote(path))"
            case .environment(let variable): return "--from-file=\(file.key)=<(printf %s \"$\(variable)\")"
            case .prompt: return "--from-file=\(file.key)=FILE-HOLDING-THE-PASSWORD"
            }
        }
        return (["kubectl", "create", "secret", "generic", name] + (namespace.map { ["-n", $0] } ?? []) + sources).joined(separator: " ")
    }

    /// The `kubectl create secret` command of serve's access token.
    func serveTokenCommand(namespace: String?) -> String {
        let source = serveTokenSource.map { "--from-file=token=" + Self.shellQuote($0) } ?? "--from-file=token=<(openssl rand -hex 32)"
        return (["kubectl", "create", "secret", "generic", KubernetesFleet.Names.serveToken] + (namespace.map { ["-n", $0] } ?? []) + [source])
            .joined(separator: " ")
    }

    /// A ConfigMap key from a file name: `[-._a-zA-Z0-9]`, other characters as `-`.
    static func keySafe(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._")
        let mapped = String(name.map { allowed.contains($0) ? $0 : "-" }.prefix(200))
        return mapped.isEmpty ? "file" : mapped
    }

    /// Quotes a word for a POSIX shell: unchanged when plain, else single-quoted.
    static func shellQuote(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@")
        if !word.isEmpty, word.allSatisfy({ plain.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
