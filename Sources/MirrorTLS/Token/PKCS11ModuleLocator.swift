import Foundation

/// Chooses the PKCS#11 module file to load, and names the Debian package when it is missing.
///
/// In order: the URI's `module-path`; its `module-name`, looked up in p11-kit's module
/// registrations (`/etc/pkcs11/modules/NAME.module`, `/usr/share/p11-kit/modules/NAME.module`);
/// the configured module (`--pkcs11-module`, `identity.module`); p11-kit's proxy module, which
/// loads every registered module (softhsm2 and OpenSC register themselves on install).
enum PKCS11ModuleLocator {
    /// Where p11-kit's proxy module sits on Debian's architectures (package `p11-kit-modules`).
    static let proxyCandidates = [
        "/usr/lib/x86_64-linux-gnu/p11-kit-proxy.so", "/usr/lib/aarch64-linux-gnu/p11-kit-proxy.so",
        "/usr/lib/arm-linux-gnueabihf/p11-kit-proxy.so", "/usr/lib/i386-linux-gnu/p11-kit-proxy.so",
        "/usr/lib64/p11-kit-proxy.so", "/usr/lib/p11-kit-proxy.so",
    ]
    /// Folders holding p11-kit module registrations.
    static let registrationFolders = ["/etc/pkcs11/modules", "/usr/share/p11-kit/modules"]
    /// Debian packages of well-known modules, by file name.
    static let packages = [
        "p11-kit-proxy.so": "p11-kit-modules", "libsofthsm2.so": "softhsm2", "opensc-pkcs11.so": "opensc-pkcs11",
        "onepin-opensc-pkcs11.so": "opensc-pkcs11", "libykcs11.so": "ykcs11", "libtpm2_pkcs11.so": "libtpm2-pkcs11-1",
    ]

    /// The module file to load for `uri`.
    ///
    /// - Throws: ``TokenError/moduleMissing(path:package:)`` when the chosen file does not exist.
    static func resolve(uri: PKCS11URI, configured: String?) throws(TokenError) -> String {
        if let path = uri.modulePath { return try existing(path) }
        if let name = uri.moduleName {
            for folder in registrationFolders {
                if let path = registeredModule(folder + "/" + name + ".module") { return try existing(path) }
            }
            throw .moduleMissing(path: "\(name) (no p11-kit registration \(name).module)", package: packages["lib\(name).so"] ?? (name == "softhsm2" ? "softhsm2" : nil))
        }
        if let configured { return try existing(configured) }
        if let proxy = proxyCandidates.first(where: { FileManager.default.fileExists(atPath: $0) }) { return proxy }
        throw .moduleMissing(path: proxyCandidates[0], package: "p11-kit-modules")
    }

    private static func existing(_ path: String) throws(TokenError) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .moduleMissing(path: path, package: packages[(path as NSString).lastPathComponent])
        }
        return path
    }

    /// The `module:` path of a p11-kit registration file; a relative one lives in p11-kit's module folder.
    static func registeredModule(_ file: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("module:") else { continue }
            let value = trimmed.dropFirst("module:".count).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("/") { return value }
            let folder = proxyCandidates.first(where: { FileManager.default.fileExists(atPath: $0) })
                .map { ($0 as NSString).deletingLastPathComponent + "/pkcs11" } ?? "/usr/lib/x86_64-linux-gnu/pkcs11"
            return folder + "/" + value
        }
        return nil
    }
}
