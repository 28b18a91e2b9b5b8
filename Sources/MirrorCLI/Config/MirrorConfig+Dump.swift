extension MirrorConfig {
    /// The effective config as pretty JSON, with every default filled in and every path absolute,
    /// for diagnostics and tests.
    ///
    /// Secrets are shown only as the references the config holds (`{"env": "VAR"}`); the config
    /// never contains their values. The output is itself a valid config that loads to an equal value.
    public func dumpRedacted() -> String {
        let top: [ConfigJSON.Member] = [
            .init("output", .string(output)),
            .init("jobs", .number(String(jobs))),
            .init("sites", .array(sites.map(\.dumpJSON))),
            .init("serve", serve.dumpJSON),
        ]
        return ConfigJSON.object(top).pretty() + "\n"
    }
}

extension SiteConfig {
    var dumpJSON: ConfigJSON {
        var members: [ConfigJSON.Member] = [
            .init("name", .string(name)),
            .init("start", .array(start.map { .string($0.string) })),
        ]
        if let identity { members.append(.init("identity", identity.dumpJSON)) }
        members += [
            .init("trust", trust.dumpJSON), .init("scope", scope.dumpJSON), .init("limits", limits.dumpJSON), .init("traps", traps.dumpJSON),
            .init("http", http.dumpJSON), .init("refresh", refresh.dumpJSON), .init("serve", serve.dumpJSON),
        ]
        if let archive { members.append(.init("archive", archive.dumpJSON)) }
        if let render { members.append(.init("render", render.dumpJSON)) }
        return .object(members)
    }
}

extension IdentityConfig {
    var dumpJSON: ConfigJSON {
        var members: [ConfigJSON.Member] = [.init("cert", .string(certificate))]
        if let type { members.append(.init("type", .string(type.rawValue))) }
        if let key { members.append(.init("key", .string(key))) }
        if let module { members.append(.init("module", .string(module))) }
        if let password { members.append(.init("password", password.dumpJSON)) }
        members.append(.init("hosts", .array(hosts.map(ConfigJSON.string))))
        return .object(members)
    }
}

extension PasswordReference {
    var dumpJSON: ConfigJSON {
        switch self {
        case .environment(let variable): return .object([.init("env", .string(variable))])
        case .file(let path): return .object([.init("file", .string(path))])
        case .prompt: return .string("prompt")
        }
    }
}

extension TrustConfig {
    var dumpJSON: ConfigJSON {
        var members: [ConfigJSON.Member] = []
        if let defaultPolicy { members.append(.init("default", defaultPolicy.dumpJSON)) }
        if !hosts.isEmpty || defaultPolicy == nil {
            members.append(.init("hosts", .object(hosts.map { .init($0.pattern, $0.policy.dumpJSON) })))
        }
        return .object(members)
    }
}

extension TrustPolicyConfig {
    var dumpJSON: ConfigJSON {
        var members: [ConfigJSON.Member] = [.init("type", .string(typeName))]
        func files(_ key: String, _ paths: [String]) {
            let system = key == "cacert" && paths.first == TrustPolicyConfig.systemStoreAnchor
            let listed = system ? Array(paths.dropFirst()) : paths
            if !listed.isEmpty { members.append(.init(key, .array(listed.map(ConfigJSON.string)))) }
            if system { members.append(.init("system", .bool(true))) }
        }
        switch self {
        case .default(let anchors, let verifyHost):
            files("cacert", anchors)
            members.append(.init("verifyHost", .bool(verifyHost)))
        case .revocation(let crls, let anchors, let verifyHost):
            files("crl", crls)
            files("cacert", anchors)
            members.append(.init("verifyHost", .bool(verifyHost)))
        case .pinnedCertificates(let certificates, let requireChain, let anchors, let verifyHost):
            files("certificates", certificates)
            members.append(.init("requireChain", .bool(requireChain)))
            files("cacert", anchors)
            members.append(.init("verifyHost", .bool(verifyHost)))
        case .publicKeys(let pins, let requireChain, let anchors, let verifyHost):
            members.append(.init("pins", .array(pins.map(ConfigJSON.string))))
            members.append(.init("requireChain", .bool(requireChain)))
            files("cacert", anchors)
            members.append(.init("verifyHost", .bool(verifyHost)))
        case .composite(let policies):
            members.append(.init("policies", .array(policies.map(\.dumpJSON))))
        case .disabled:
            break
        }
        return .object(members)
    }
}

extension ScopeConfig {
    /// Path rules as the config writes them.
    static func dump(_ list: [Pattern]) -> ConfigJSON {
        .array(list.map {
            switch $0 {
            case .prefix(let text): return .string(text)
            case .regex(let text): return .string("regex:" + text)
            }
        })
    }

    var dumpJSON: ConfigJSON {
        let patterns = Self.dump
        return .object([
            .init("include", patterns(include)), .init("exclude", patterns(exclude)),
            .init("noParent", .bool(noParent)), .init("depth", depth.map { .number(String($0)) } ?? .null),
            .init("requisiteHosts", .array(requisiteHosts.map(ConfigJSON.string))), .init("robots", .bool(robots)),
        ])
    }
}

extension LimitsConfig {
    var dumpJSON: ConfigJSON {
        .object([
            .init("maxPages", maxPages.map { .number(String($0)) } ?? .null),
            .init("maxBytes", maxBytes.map(ConfigQuantity.formatBytes) ?? .null),
            .init("maxFileSize", ConfigQuantity.formatBytes(maxFileSize)),
            .init("maxRedirects", .number(String(maxRedirects))),
            .init("maxURLLength", .number(String(maxURLLength))),
            .init("maxDecompressionRatio", .number(ConfigQuantity.formatNumber(maxDecompressionRatio))),
            .init("maxHTMLBytes", ConfigQuantity.formatBytes(maxHTMLBytes)),
            .init("perHostConnections", .number(String(perHostConnections))),
            .init("connectTimeout", ConfigQuantity.formatSeconds(connectTimeout)),
            .init("idleTimeout", ConfigQuantity.formatSeconds(idleTimeout)),
            .init("totalTimeout", ConfigQuantity.formatSeconds(totalTimeout)),
            .init("retries", .number(String(retries))),
            .init("runTime", runTime.map(ConfigQuantity.formatSeconds) ?? .null),
            .init("headerTimeout", ConfigQuantity.formatSeconds(headerTimeout)),
            .init("minRate", ConfigQuantity.formatBytes(minRate)),
            .init("publishPartial", .bool(publishPartial)),
            .init("httpVersion", .string(httpVersion.rawValue)),
        ])
    }
}

extension TrapsConfig {
    var dumpJSON: ConfigJSON {
        func limit(_ value: Int?) -> ConfigJSON { value.map { .number(String($0)) } ?? .null }
        return .object([
            .init("maxPathSegments", limit(rules.maxPathSegments)), .init("maxSegmentRepeats", limit(rules.maxSegmentRepeats)),
            .init("maxQueryVariants", limit(rules.maxQueryVariants)), .init("maxGrowingSteps", limit(rules.maxGrowingSteps)),
            .init("maxShapeChain", limit(rules.maxShapeChain)),
        ])
    }
}

extension HTTPConfig {
    var dumpJSON: ConfigJSON {
        var members: [ConfigJSON.Member] = [
            .init("headers", .object(headers.map { header in
                switch header.value {
                case .literal(let text): return .init(header.name, .string(text))
                case .reference(let reference): return .init(header.name, reference.dumpJSON)
                }
            })),
        ]
        if let userAgent { members.append(.init("userAgent", .string(userAgent))) }
        if let cookies { members.append(.init("cookies", .string(cookies))) }
        members.append(.init("allowDowngrade", .bool(allowDowngrade)))
        return .object(members)
    }
}

extension RefreshConfig {
    var dumpJSON: ConfigJSON {
        var members: [ConfigJSON.Member] = []
        if let every { members.append(.init("every", ConfigQuantity.formatSeconds(every))) }
        members += [
            .init("jitter", ConfigQuantity.formatSeconds(jitter)), .init("keep", .number(String(keep))),
            .init("expiryWarningDays", .number(String(expiryWarningDays))),
        ]
        return .object(members)
    }
}

extension ServeConfig {
    var dumpJSON: ConfigJSON {
        .object([
            .init("bind", .string(bind)), .init("port", .number(String(port))), .init("allowRemote", .bool(allowRemote)),
            .init("tokenFile", tokenFile.map(ConfigJSON.string) ?? .null),
            .init("accessLog", accessLog.map(ConfigJSON.string) ?? .null),
        ])
    }
}

extension SiteServeConfig {
    var dumpJSON: ConfigJSON {
        .object([.init("live", .bool(live)), .init("maxAge", maxAge.map(ConfigQuantity.formatSeconds) ?? .null)])
    }
}
