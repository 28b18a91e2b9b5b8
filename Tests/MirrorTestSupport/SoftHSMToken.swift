import Foundation

/// A real PKCS#11 token for tests: a SoftHSM2 token in its own folder, with an RSA key made
/// INSIDE the token by `pkcs11-tool --keypairgen` (so it is "never extractable"), and a client
/// certificate for that key issued by the test client CA's intermediate, stored on the token
/// beside the intermediate itself.
///
/// Each token has its own `SOFTHSM2_CONF` and `directories.tokendir`: pass ``environment`` to
/// every process that should see it (p11-kit's proxy loads SoftHSM2, which reads the variable).
///
/// ```swift
/// let token = try SoftHSMToken(pki: pki)
/// runner.run(["mirror", url, "--cert", token.uri, "--pass-env", "PIN"], environment: token.environment(pinVariable: "PIN"))
/// ```
public final class SoftHSMToken: Sendable {
    /// SoftHSM2's module (Debian `libsofthsm2`, pulled in by `softhsm2`).
    public static let modulePath = "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so"

    /// The token's label, its user PIN, and the key's label and id.
    public let label: String
    public let pin: String
    public let keyLabel = "mirror-token-key"
    public let keyID = "01"
    /// `SOFTHSM2_CONF` for this token.
    public let configurationFile: String
    /// The client certificate issued for the token's key (PEM), and the same followed by the
    /// client intermediate CA.
    public let certificateFile: String
    public let certificateChainFile: String
    /// The subject of the token's certificate.
    public let subject = "CN=mirror-token-client"
    private let storage: TemporaryDirectory

    /// Why the token could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let step: String
        public let output: String
        public var description: String {
            "SoftHSM token setup failed at \(step): \(output.trimmingCharacters(in: .whitespacesAndNewlines)) "
                + "(run scripts/install-deps.sh: it installs softhsm2, opensc and p11-kit-modules)"
        }
    }

    /// Makes the token, its key and its certificate.
    ///
    /// - Parameters:
    ///   - pki: the test PKI whose `client-int` CA issues the certificate.
    ///   - label: the token's label.
    ///   - pin: the user PIN.
    /// - Throws: ``Failure`` naming the step that failed and what the tool printed.
    public init(pki: TestPKI, label: String = "mirror-test", pin: String = "4711-token") throws {
        self.label = label
        self.pin = pin
        storage = try TemporaryDirectory(prefix: "mtls-mirror-softhsm")
        let root = storage.path
        configurationFile = root + "/softhsm2.conf"
        certificateFile = root + "/token-cert.pem"
        certificateChainFile = root + "/token-chain.pem"
        try FileManager.default.createDirectory(atPath: root + "/tokens", withIntermediateDirectories: true)
        try "directories.tokendir = \(root)/tokens\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n"
            .write(toFile: configurationFile, atomically: true, encoding: .utf8)
        let environment = ["SOFTHSM2_CONF": configurationFile]
        try Self.run("/usr/bin/softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "so-\(pin)"],
                     environment: environment, step: "softhsm2-util --init-token")
        let tool = ["--module", Self.modulePath, "--token-label", label, "--login", "--pin", pin]
        try Self.run("/usr/bin/pkcs11-tool", tool + ["--keypairgen", "--key-type", "rsa:2048", "--label", keyLabel, "--id", keyID],
                     environment: environment, step: "pkcs11-tool --keypairgen")
        try Self.run("/usr/bin/pkcs11-tool", tool + ["--read-object", "--type", "pubkey", "--id", keyID, "-o", root + "/pub.der"],
                     environment: environment, step: "pkcs11-tool --read-object")
        try Self.run("/usr/bin/openssl", ["pkey", "-pubin", "-inform", "DER", "-in", root + "/pub.der", "-out", root + "/pub.pem"],
                     step: "openssl pkey")
        // OpenSSL 3.0 issues a certificate only from a request; the request's own key is a
        // throwaway, replaced by the token's public key (-force_pubkey).
        try Self.run("/usr/bin/openssl", ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                          "-keyout", root + "/throwaway.key", "-subj", "/CN=mirror-token-client", "-out", root + "/req.csr"],
                     step: "openssl req")
        try "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n"
            .write(toFile: root + "/ext.cnf", atomically: true, encoding: .utf8)
        try Self.run("/usr/bin/openssl", ["x509", "-req", "-in", root + "/req.csr", "-force_pubkey", root + "/pub.pem",
                                          "-CA", pki.path("client-int.pem"), "-CAkey", pki.path("client-int.key"),
                                          "-set_serial", "0x\(UInt32.random(in: 1...UInt32.max))", "-days", "30",
                                          "-extfile", root + "/ext.cnf", "-out", certificateFile],
                     step: "openssl x509 -req")
        let certificate = try String(contentsOfFile: certificateFile, encoding: .utf8)
        let intermediate = try String(contentsOfFile: pki.path("client-int.pem"), encoding: .utf8)
        try (certificate + intermediate).write(toFile: certificateChainFile, atomically: true, encoding: .utf8)
        try Self.run("/usr/bin/pkcs11-tool", tool + ["--write-object", certificateFile, "--type", "cert", "--id", keyID, "--label", keyLabel],
                     environment: environment, step: "pkcs11-tool --write-object (certificate)")
        try Self.run("/usr/bin/pkcs11-tool", tool + ["--write-object", pki.path("client-int.pem"), "--type", "cert", "--id", "02",
                                                     "--label", "client-intermediate"],
                     environment: environment, step: "pkcs11-tool --write-object (intermediate)")
    }

    /// `pkcs11:token=LABEL;object=KEY` (plus any extra attributes, already encoded).
    public func uri(object: String? = nil, token: String? = nil, extra: String = "") -> String {
        "pkcs11:token=\(token ?? label);object=\(object ?? keyLabel)\(extra)"
    }

    /// The environment a process needs to see this token, with the PIN in `pinVariable`.
    public func environment(pinVariable: String? = nil, pin: String? = nil) -> [String: String] {
        var environment = ["SOFTHSM2_CONF": configurationFile, "NO_COLOR": "1"]
        if let pinVariable { environment[pinVariable] = pin ?? self.pin }
        return environment
    }

    /// What `pkcs11-tool -O` says about the token's objects (key attributes included).
    public func listObjects() throws -> String {
        try Self.run("/usr/bin/pkcs11-tool", ["--module", Self.modulePath, "--token-label", label, "--login", "--pin", pin, "-O"],
                     environment: ["SOFTHSM2_CONF": configurationFile], step: "pkcs11-tool -O")
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], step: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw Failure(step: step, output: "\(tool) is not installed") }
        let result = CommandRunner(executable: URL(fileURLWithPath: tool)).run(arguments, environment: environment, timeout: 60)
        guard result.succeeded else { throw Failure(step: step, output: result.stderr + result.stdout) }
        return result.stdout
    }
}
