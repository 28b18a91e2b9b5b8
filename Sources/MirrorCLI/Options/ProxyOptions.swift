import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTLS

/// The proxy options shared by the commands that fetch. Names follow curl where they overlap
/// (`--proxy`, `--noproxy`, `--proxy-cacert`); the password comes by reference only.
struct ProxyOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("proxy", short: "x", value: "URL", help: "Go through this proxy: http://host:port or https://host:port (CONNECT tunnels: TLS stays end to end, the client certificate reaches the origin only)."),
        OptionSpec("noproxy", value: "HOSTS", help: "Reach these hosts directly (comma-separated; host, .domain or domain for it and its subdomains, * for all)."),
        OptionSpec("proxy-user", value: "NAME", help: "Basic authentication to the proxy as NAME; the password comes from --proxy-pass-env or --proxy-pass-file."),
        OptionSpec("proxy-pass-env", value: "VAR", help: "Read the proxy password from environment variable VAR."),
        OptionSpec("proxy-pass-file", value: "FILE", help: "Read the proxy password from the first line of FILE."),
        OptionSpec("proxy-cacert", value: "FILE", help: "Verify an HTTPS proxy with this CA (PEM) instead of the system store."),
        OptionSpec("proxy-env", help: "Use the proxy of https_proxy/http_proxy/all_proxy and no_proxy from the environment (ignored otherwise)."),
        OptionSpec("http-version", value: "VERSION", values: .choices(HTTPVersionPreference.allCases.map(\.rawValue)),
                   help: "HTTP version over TLS: auto (HTTP/2, then HTTP/1.1 on 8 connections once a transfer shows a near link, 2 ms or less, in a run of 256 transfers or more), 1.1, or 2 (default auto)."),
    ]

    /// The `--http-version` option's value (default ``HTTPVersionPreference/automatic``).
    static func httpVersion(_ arguments: ParsedArguments) throws -> HTTPVersionPreference {
        guard let text = arguments.value("http-version") else { return .automatic }
        guard let version = HTTPVersionPreference(rawValue: text) else {
            throw UsageError("--http-version must be auto, 1.1 or 2, not \"\(text)\"")
        }
        return version
    }

    let settings: ProxySettings

    /// Reads the options; `nil` settings when none were given (the caller's default applies).
    init(_ arguments: ParsedArguments) throws {
        let named = arguments.value("proxy")
        if named != nil && arguments.flag("proxy-env") {
            throw UsageError("give either --proxy URL or --proxy-env, not both")
        }
        if arguments.flag("proxy-env") {
            settings = try ProxySettings.fromEnvironment()
            if arguments.value("noproxy") != nil || arguments.value("proxy-user") != nil {
                throw UsageError("--noproxy and --proxy-user go with --proxy URL", hint: "with --proxy-env, no_proxy and the variable's URL say it")
            }
            return
        }
        guard let named else {
            for option in ["noproxy", "proxy-user", "proxy-pass-env", "proxy-pass-file", "proxy-cacert"] where arguments.value(option) != nil {
                throw UsageError("--\(option) needs --proxy URL")
            }
            settings = .direct
            return
        }
        var endpoint = try ProxyEndpoint(url: named, source: "--proxy")
        endpoint.noProxy = arguments.value("noproxy").map(ProxyEndpoint.splitHosts) ?? []
        endpoint.caFile = arguments.value("proxy-cacert")
        if let user = arguments.value("proxy-user") {
            endpoint.username = user
            let sources = [arguments.value("proxy-pass-env").map(PasswordSource.environment),
                           arguments.value("proxy-pass-file").map(PasswordSource.file)].compactMap { $0 }
            guard sources.count == 1 else {
                throw UsageError("--proxy-user needs exactly one of --proxy-pass-env VAR and --proxy-pass-file FILE")
            }
            endpoint.password = try sources[0].resolve(forFile: "the proxy \(endpoint.url)")
        }
        settings = .proxy(endpoint)
    }
}

extension HTTPClient.Configuration {
    /// The default configuration with the proxy the command line asks for.
    static func proxied(_ arguments: ParsedArguments, maxConnectionsPerHost: Int = 8, maxTotalConnections: Int = 32,
                        politeness: Politeness? = nil) throws -> Self {
        .init(maxConnectionsPerHost: maxConnectionsPerHost, maxTotalConnections: maxTotalConnections,
              proxy: try ProxyOptions(arguments).settings, politeness: politeness, httpVersion: try ProxyOptions.httpVersion(arguments))
    }
}
