// swift-tools-version:6.0
// mtls-mirror: mirror, serve and refresh websites that require a TLS client certificate.
//
// The package depends on system libraries only (libcurl with OpenSSL, libxml2, OpenSSL 3);
// `scripts/install-deps.sh` installs their Debian packages.
import PackageDescription

let package = Package(
    name: "mtls-mirror",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mtls-mirror", targets: ["mtls-mirror"]),
        .library(name: "MirrorKit", targets: [
            "MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorCrawler", "MirrorServer", "MirrorScheduler", "MirrorCLI",
        ]),
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),

        // MARK: Logic-free C shims for what Swift cannot call (variadics, macros, globals)
        .target(name: "CMirrorShims", dependencies: ["CCurl", "CLibXML2", "COpenSSL"]),

        // MARK: Library, by role
        .target(name: "MirrorCore", dependencies: ["COpenSSL", "CMirrorShims"]),
        .target(name: "MirrorTLS", dependencies: ["MirrorCore", "COpenSSL", "CMirrorShims"]),
        .target(name: "MirrorHTTP", dependencies: ["MirrorCore", "MirrorTLS", "CCurl", "CMirrorShims"]),
        .target(name: "MirrorDocument", dependencies: ["MirrorCore", "CLibXML2", "CMirrorShims"]),
        .target(name: "MirrorStore", dependencies: ["MirrorCore", "CMirrorShims"]),
        .target(name: "MirrorCrawler", dependencies: [
            "MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore",
        ]),
        .target(name: "MirrorScheduler", dependencies: ["MirrorCore", "MirrorStore"]),
        .target(name: "MirrorServer", dependencies: ["MirrorCore", "MirrorStore", "COpenSSL", "CMirrorShims"]),
        .target(name: "MirrorCLI", dependencies: [
            "MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorCrawler", "MirrorServer", "MirrorScheduler",
        ]),

        // MARK: The tool: a few lines over MirrorCLI
        .executableTarget(name: "mtls-mirror", dependencies: ["MirrorCLI"]),

        // MARK: Tests
        .target(
            name: "MirrorTestSupport", dependencies: ["MirrorCore", "MirrorDocument"],
            path: "Tests/MirrorTestSupport"),
        .testTarget(name: "MirrorCoreTests", dependencies: ["MirrorCore", "MirrorTestSupport"]),
        .testTarget(name: "MirrorTLSTests", dependencies: ["MirrorTLS", "MirrorTestSupport"]),
        .testTarget(name: "MirrorHTTPTests", dependencies: ["MirrorHTTP", "MirrorTLS", "MirrorTestSupport"]),
        .testTarget(name: "MirrorDocumentTests", dependencies: ["MirrorDocument", "MirrorTestSupport"]),
        .testTarget(name: "MirrorStoreTests", dependencies: ["MirrorStore", "MirrorTestSupport"]),
        .testTarget(name: "MirrorCrawlerTests", dependencies: ["MirrorCrawler", "MirrorTestSupport"]),
        .testTarget(name: "MirrorSchedulerTests", dependencies: ["MirrorScheduler", "MirrorTestSupport"]),
        .testTarget(name: "MirrorServerTests", dependencies: ["MirrorServer", "MirrorTestSupport"]),
        .testTarget(name: "MirrorCLITests", dependencies: ["MirrorCLI", "MirrorTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
