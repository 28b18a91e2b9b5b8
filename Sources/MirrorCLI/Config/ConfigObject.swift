/// The members of one config object whose keys are already checked, read by name.
struct ConfigObject {
    /// The object itself (for errors about the whole object).
    let node: ConfigNode
    let members: [ConfigJSON.Member]

    /// The member `key`, or `nil` when it is absent.
    func optional(_ key: String) -> ConfigNode? {
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return ConfigNode(value: member.value, path: node.path.key(key), source: node.source)
    }

    /// The member `key`, or `nil` when it is absent or `null` (for fields whose schema allows `null`).
    func nullable(_ key: String) -> ConfigNode? {
        guard let member = optional(key), !member.isNull else { return nil }
        return member
    }

    /// The member `key`.
    ///
    /// - Throws: ``ConfigError/missing(file:fieldPath:)`` when it is absent.
    func required(_ key: String) throws(ConfigError) -> ConfigNode {
        guard let member = optional(key) else {
            throw .missing(file: node.source.file, fieldPath: node.path.key(key).description)
        }
        return member
    }

    /// Whether the object has the member `key`.
    func has(_ key: String) -> Bool { members.contains { $0.key == key } }
}
