import Foundation
import MirrorCore
import MirrorHTTP
import MirrorStore
import MirrorTLS

/// `mtls-mirror fetch URL`: one URL over mTLS, like `curl` with a trust policy.
struct FetchCommand {
    static let spec = CommandSpec(
        name: "fetch",
        summary: "fetch one URL with a client certificate and an explicit server-trust policy",
        usage: "mtls-mirror fetch URL [-o FILE] [-i] [TLS options]",
        discussion: """
            Writes the body to standard output, or atomically to FILE with -o. Redirects are followed \
            (at most --max-redirs); the client certificate goes only to the URL's own host and port \
            unless --identity-host adds more. An HTTP error status exits 6 and writes nothing to FILE.
            """,
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Write the body to FILE (created 0600, replaced atomically)."),
            OptionSpec("include", short: "i", help: "Print the response status line and headers before the body."),
            OptionSpec("head", short: "I", help: "Send HEAD and print only the status line and headers."),
            OptionSpec("header", short: "H", value: "'NAME: VALUE'", repeatable: true, help: "Add a request header."),
            OptionSpec("user-agent", short: "A", value: "TEXT", help: "User-Agent header (default mtls-mirror/VERSION)."),
            OptionSpec("etag", value: "ETAG", help: "Send If-None-Match: ETAG (a 304 exits 0 and writes nothing)."),
            OptionSpec("if-modified-since", value: "DATE", help: "Send If-Modified-Since: DATE (an HTTP-date)."),
            OptionSpec("max-redirs", value: "N", help: "Follow at most N redirects (default 10)."),
            OptionSpec("allow-downgrade", help: "Follow redirects from https to plain http."),
            OptionSpec("max-file-size", value: "SIZE", aliases: ["max-filesize"], help: "Fail when the body is larger than SIZE (default 256MiB), as mirror's option of the same name."),
            OptionSpec("connect-timeout", value: "SECONDS", help: "Connect time limit (default 15)."),
            OptionSpec("max-time", value: "SECONDS", help: "Total time limit per request (default 600)."),
            OptionSpec("retry", value: "N", help: "Retry 5xx, 429 and timeouts N times with backoff (default 2)."),
            OptionSpec("compressed-ratio", value: "N", help: "Fail when the body decompresses beyond N times its size (default 200)."),
            OptionSpec("verbose", short: "v", help: "Log the TLS and HTTP details to standard error."),
            OptionSpec("silent", short: "s", help: "Print errors only."),
        ] + TLSOptions.specs,
        examples: [
            "mtls-mirror fetch https://intranet.example/ --cert me.p12 --pass-env P12_PASSWORD",
            "mtls-mirror fetch https://portal.example/report.pdf -o report.pdf --cert me.crt --key me.key --cacert corp-ca.pem",
            "mtls-mirror fetch https://10.0.0.5/ --cert me.p12 --pass-file ~/.p12pass --pinnedpubkey 'sha256//AbC...='",
        ])

    let arguments: ParsedArguments
    let logger: Logger

    func run() async throws -> ExitCode {
        guard arguments.positionals.count == 1, let url = arguments.positionals.first else {
            throw UsageError("fetch takes exactly one URL (got \(arguments.positionals.count))", hint: "mtls-mirror fetch https://host/path --cert FILE")
        }
        let tls = try TLSOptions(arguments)
        var request = HTTPRequest(url: url, method: arguments.flag("head") ? .head : .get)
        for header in arguments.all("header") {
            guard let colon = header.firstIndex(of: ":") else {
                throw UsageError("--header \"\(header)\" is not NAME: VALUE")
            }
            request.headers.append((String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        if let agent = arguments.value("user-agent") { request.userAgent = agent }
        request.ifNoneMatch = arguments.value("etag")
        request.ifModifiedSince = arguments.value("if-modified-since")
        if let size = try arguments.size("max-file-size") { request.maxBodyBytes = size }
        if let seconds = try arguments.double("connect-timeout") { request.timeouts.connect = seconds }
        if let seconds = try arguments.double("max-time") { request.timeouts.total = seconds }
        if let ratio = try arguments.double("compressed-ratio") { request.maxDecompressionRatio = ratio }
        var redirects = RedirectPolicy()
        if let n = try arguments.int("max-redirs") { redirects.maxRedirects = n }
        redirects.allowDowngrade = arguments.flag("allow-downgrade")
        var retries = RetryPolicy()
        if let n = try arguments.int("retry") { retries.maxRetries = n }

        let output = arguments.value("output")
        let partial = output.map { $0 + ".part-\(getpid())" }
        if let partial {
            request.destination = .file(partial)
            request.bodyFiles = BodyFiles()
        }

        let security = try tls.securityPolicy(for: url, logger: logger)
        let client = HTTPClient(configuration: try .proxied(arguments))
        defer { client.shutdown() }
        let result: FetchResult
        do {
            result = try await client.fetch(request, security: security, redirects: redirects, retries: retries)
        } catch {
            if let partial { unlink(partial) }
            throw error
        }
        let response = result.response
        if result.chain.count > 1 {
            logger.info("followed \(result.chain.count - 1) redirect(s): \(result.chain.joined(separator: " -> "))")
        }
        if arguments.flag("verbose") { logDetails(response) }
        if arguments.flag("include") || arguments.flag("head") {
            var head = "HTTP/\(response.httpVersion) \(response.status)\r\n"
            for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
            Terminal.write(head + "\r\n", to: 1)
        }
        if response.status >= 400 {
            if let partial { unlink(partial) }
            throw HTTPError.httpStatus(url: result.finalURL, status: response.status)
        }
        if response.status == 304 {
            if let partial { unlink(partial) }
            logger.info("not modified (304): \(result.finalURL)")
            return .success
        }
        if let output, let partial, request.method == .get {
            guard rename(partial, output) == 0 else {
                let code = errno
                unlink(partial)
                throw HTTPError.io(path: output, errno: code)
            }
            if !arguments.flag("silent") {
                logger.info("saved \(response.bodyBytes) bytes to \(output)")
            }
        } else if request.method == .get {
            response.body.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { if errno == EINTR { continue }; break }
                    offset += n
                }
            }
        }
        return .success
    }

    private func logDetails(_ response: HTTPResponse) {
        if let tls = response.tls {
            logger.info("TLS \(tls.version ?? "?") \(tls.cipher ?? "?") ALPN \(tls.alpn ?? "none"), trust policy \(tls.evaluatorName), client certificate \(tls.identitySent ? "sent" : "not sent")\(response.reusedConnection ? " (reused connection)" : "")")
        }
        logger.info("HTTP/\(response.httpVersion) \(response.status), \(response.bodyBytes) bytes (\(response.wireBytes) on the wire) in \(NumberText.fixed(response.totalTime, fractionDigits: 3)) s")
    }
}
