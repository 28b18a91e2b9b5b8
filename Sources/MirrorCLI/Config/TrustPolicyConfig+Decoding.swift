import MirrorTLS

extension TrustPolicyConfig {
    /// The `"type"` values, for "expected one of …".
    static let typeNames = ["default", "revocation", "pinnedCertificates", "publicKeys", "composite", "disabled"]

    /// The keys each policy type allows besides `"type"`.
    static func keys(forType type: String) -> [String] {
        switch type {
        case "default": return ["type", "cacert", "system", "verifyHost"]
        case "revocation": return ["type", "crl", "cacert", "system", "verifyHost"]
        case "pinnedCertificates": return ["type", "certificates", "requireChain", "cacert", "system", "verifyHost"]
        case "publicKeys": return ["type", "pins", "requireChain", "cacert", "system", "verifyHost"]
        case "composite": return ["type", "policies"]
        default: return ["type"]
        }
    }

    /// Decodes a POLICY object, checking that its CA, CRL and certificate files are readable now.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let expected = "a trust policy object with \"type\""
        guard case .object = node.value else { throw node.invalid(expected) }
        let typeNode = try ConfigObject(node: node, members: Self.members(of: node)).required("type")
        let typeList = Self.typeNames.map(ConfigJSON.quoted).joined(separator: ", ")
        let type = try typeNode.string("one of \(typeList)")
        guard Self.typeNames.contains(type) else {
            let guess = KeySuggestion.closest(to: type, among: Self.typeNames).map { " (did you mean \(ConfigJSON.quoted($0))?)" } ?? ""
            throw typeNode.invalid("one of \(typeList)", found: ConfigJSON.quoted(type) + guess)
        }
        let object = try node.object(keys: Self.keys(forType: type), expected: expected)
        switch type {
        case "default":
            self = .default(anchors: try Self.anchors(object), verifyHost: try Self.flag(object, "verifyHost", true))
        case "revocation":
            self = .revocation(crls: try Self.files(object, "crl", required: true), anchors: try Self.anchors(object),
                               verifyHost: try Self.flag(object, "verifyHost", true))
        case "pinnedCertificates":
            self = .pinnedCertificates(
                certificates: try Self.files(object, "certificates", required: true), requireChain: try Self.flag(object, "requireChain", false),
                anchors: try Self.anchors(object), verifyHost: try Self.flag(object, "verifyHost", true))
        case "publicKeys":
            self = .publicKeys(
                pins: try Self.pins(object.required("pins")), requireChain: try Self.flag(object, "requireChain", false),
                anchors: try Self.anchors(object), verifyHost: try Self.flag(object, "verifyHost", true))
        case "composite":
            var members: [TrustPolicyConfig] = []
            for member in try object.required("policies").array(of: "trust policies", nonEmpty: true) {
                members.append(try TrustPolicyConfig(decoding: member))
            }
            self = .composite(members)
        default:
            self = .disabled
        }
    }

    private static func members(of node: ConfigNode) -> [ConfigJSON.Member] {
        guard case .object(let members) = node.value else { return [] }
        return members
    }

    private static func flag(_ object: ConfigObject, _ key: String, _ fallback: Bool) throws(ConfigError) -> Bool {
        try object.optional(key)?.bool() ?? fallback
    }

    /// The `cacert` files, plus ``TrustPolicyConfig/systemStoreAnchor`` first when `"system": true`
    /// adds the system store to them (without `cacert`, the system store is the default anyway).
    private static func anchors(_ object: ConfigObject) throws(ConfigError) -> [String] {
        let files = try files(object, "cacert")
        guard let systemNode = object.optional("system") else { return files }
        let system = try systemNode.bool()
        if !system && files.isEmpty {
            throw systemNode.invalid("true, or \"cacert\" files to use instead of the system store", found: "false without \"cacert\"")
        }
        return system && !files.isEmpty ? [TrustPolicyConfig.systemStoreAnchor] + files : files
    }

    /// A list of files that must be readable now; empty when the key is absent and not required.
    private static func files(_ object: ConfigObject, _ key: String, required: Bool = false) throws(ConfigError) -> [String] {
        guard let list = required ? try object.required(key) : object.optional(key) else { return [] }
        var paths: [String] = []
        for file in try list.array(of: "file paths", nonEmpty: true) {
            paths.append(try file.readableFile())
        }
        return paths
    }

    private static func pins(_ node: ConfigNode) throws(ConfigError) -> [String] {
        let expected = "a pin \"sha256//<base64 of 32 bytes>\""
        var pins: [String] = []
        for pinNode in try node.array(of: "pins \"sha256//<base64 of 32 bytes>\"", nonEmpty: true) {
            let pin = try pinNode.string(expected)
            guard !pin.contains(";"), let parsed = try? PublicKeysTrustEvaluator.parsePins(pin), parsed.count == 1 else {
                throw pinNode.invalid(expected)
            }
            if !pins.contains(parsed[0]) { pins.append(parsed[0]) }
        }
        return pins
    }
}
