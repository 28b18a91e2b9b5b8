// swift-tools-version:6.0
// mtls-mirror: mirror, serve and refresh websites that require a TLS client certificate.
//
// The package depends on system libraries only (libcurl with OpenSSL, libxml2, OpenSSL 3, zlib,
// libdeflate, Brotli's decoder, SQLite);
// `scripts/install-deps.sh` installs their Debian packages.
import PackageDescription

/// Where libxml2's headers are (`pkg-config --cflags libxml-2.0`): Debian's, then Homebrew's.
/// CLibXML2 no longer names the pkg-config file, which would link the library.
let libxml2HeaderFolders = ["/usr/include/libxml2", "/opt/homebrew/opt/libxml2/include/libxml2", "/usr/local/opt/libxml2/include/libxml2"]

// SQLite is linked in from Debian's static archive (libsqlite3-dev) on Linux instead of loaded
// as a shared library: loading libsqlite3.so took 0.4-0.8 ms of every run's start, and the tool
// only reads and writes its own manifests with it (README, "The start of a run"). Neither the
// module map nor a pkg-config file names the library, so this is the only link request.
let sqliteLinking: [LinkerSetting] = [
    .linkedLibrary(":libsqlite3.a", .when(platforms: [.linux])),
    .linkedLibrary("sqlite3", .when(platforms: [.macOS])),
]

let package = Package(
    name: "mtls-mirror",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mtls-mirror", targets: ["mtls-mirror"]),
        .library(name: "MirrorKit", targets: [
            "MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorRender", "MirrorCrawler", "MirrorServer", "MirrorScheduler",
            "MirrorArchive", "MirrorCLI",
        ]),
    ],
    targets: [
        // MARK: System libraries
        // libcurl's headers only: the library is opened at run time (CMirrorShims' curl.c), so
        // that its 30 libraries load while the program starts instead of before `main`.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // libxml2's headers only, as for libcurl: the library is opened at run time (CMirrorShims'
        // libxml2.c), so that it and the ICU it brings load on a thread while the program starts.
        // Its headers live in a folder of their own, added to every target below.
        .systemLibrary(
            name: "CLibXML2",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // zlib: gzip-compressed sitemaps, gzip members of WARC files, CRC-32 of the WACZ zip, and the
        // gzip/deflate bodies the engine receives undecoded when it records an exchange.
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libp11: OpenSSL's PKCS#11 bridge, for keys on smart cards, tokens and HSMs (README "Hardware tokens").
        // Headers only: a token identity opens the library when it first needs it (CMirrorShims' p11.c).
        .systemLibrary(
            name: "CLibP11",
            providers: [.apt(["libp11-dev"]), .brew(["libp11"])]),
        // libdeflate: whole-buffer gzip members for WARC records in memory, about twice as fast as
        // zlib at the same ratio (measured in README "Archive output"). Headers only: archive
        // output opens the library when it first needs it (CMirrorShims' deflate.c).
        .systemLibrary(
            name: "CLibDeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        // Brotli's decoder: the br bodies the engine receives undecoded when it records an exchange.
        // Headers only, opened at its first use as libdeflate is (CMirrorShims' brotli.c).
        .systemLibrary(
            name: "CBrotli",
            providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
        // SQLite: the run's manifest entries on disk with a bounded page cache, upserted by URL and
        // read back sorted, so that a crawl's memory stays flat from 2,000 to 100,000 pages (issue #27).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),

        // MARK: Logic-free C shims for what Swift cannot call (variadics, macros, globals)
        .target(name: "CMirrorShims", dependencies: ["CCurl", "CLibXML2", "COpenSSL", "CZlib", "CBrotli", "CLibDeflate", "CLibP11"],
                cSettings: [.unsafeFlags(libxml2HeaderFolders.map { "-I" + $0 })]),

        // MARK: Library, by role
        .target(name: "MirrorCore", dependencies: ["COpenSSL", "CMirrorShims"]),
        .target(name: "MirrorTLS", dependencies: ["MirrorCore", "COpenSSL", "CLibP11", "CMirrorShims"]),
        .target(name: "MirrorHTTP", dependencies: ["MirrorCore", "MirrorTLS", "CCurl", "CZlib", "CBrotli", "CMirrorShims"]),
        .target(name: "MirrorDocument", dependencies: ["MirrorCore", "CLibXML2", "CZlib", "CMirrorShims"]),
        .target(name: "MirrorStore", dependencies: ["MirrorCore", "CSQLite", "CMirrorShims"], linkerSettings: sqliteLinking),
        // Render mode (issue #24): the browser process, a DevTools client over its pipe, page
        // sessions. It knows pages and DevTools messages, not trust or certificates.
        .target(name: "MirrorRender", dependencies: ["MirrorCore", "CMirrorShims"]),
        .target(name: "MirrorCrawler", dependencies: [
            "MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorRender", "CMirrorShims",
        ]),
        .target(name: "MirrorArchive", dependencies: [
            "MirrorCore", "MirrorHTTP", "MirrorStore", "MirrorDocument", "CZlib", "CLibDeflate", "CMirrorShims",
        ]),
        .target(name: "MirrorScheduler", dependencies: ["MirrorCore", "MirrorStore"]),
        .target(name: "MirrorServer", dependencies: ["MirrorCore", "MirrorStore", "COpenSSL", "CMirrorShims"]),
        .target(name: "MirrorCLI", dependencies: [
            "MirrorCore", "MirrorTLS", "MirrorHTTP", "MirrorDocument", "MirrorStore", "MirrorRender", "MirrorCrawler", "MirrorServer", "MirrorScheduler",
            "MirrorArchive",
        ]),

        // MARK: The tool: a few lines over MirrorCLI
        .executableTarget(name: "mtls-mirror", dependencies: ["MirrorCLI"]),

        // MARK: Tests
        .target(
            name: "MirrorTestSupport", dependencies: ["MirrorCore", "MirrorDocument"],
            path: "Tests/MirrorTestSupport"),
        .testTarget(name: "MirrorCoreTests", dependencies: ["MirrorCore", "MirrorTestSupport"]),
        .testTarget(name: "MirrorTLSTests", dependencies: ["MirrorTLS", "MirrorTestSupport"]),
        .testTarget(name: "MirrorHTTPTests", dependencies: ["MirrorHTTP", "MirrorTLS", "MirrorStore", "MirrorTestSupport"]),
        .testTarget(name: "MirrorDocumentTests", dependencies: ["MirrorDocument", "MirrorTestSupport"]),
        .testTarget(name: "MirrorStoreTests", dependencies: ["MirrorStore", "MirrorTestSupport"]),
        .testTarget(name: "MirrorRenderTests", dependencies: ["MirrorRender", "MirrorTestSupport"]),
        .testTarget(name: "MirrorCrawlerTests", dependencies: ["MirrorCrawler", "MirrorTestSupport"]),
        .testTarget(name: "MirrorSchedulerTests", dependencies: ["MirrorScheduler", "MirrorTestSupport"]),
        .testTarget(name: "MirrorArchiveTests", dependencies: ["MirrorArchive", "MirrorHTTP", "MirrorTestSupport"]),
        .testTarget(name: "MirrorServerTests", dependencies: ["MirrorServer", "MirrorTestSupport"]),
        .testTarget(name: "MirrorCLITests", dependencies: ["MirrorCLI", "MirrorTestSupport"]),

        // MARK: Fuzzing (issue #7): harnesses with their invariants, replayed over the committed corpora
        .target(
            name: "MirrorFuzzing", dependencies: ["MirrorCore", "MirrorStore", "MirrorDocument", "MirrorServer"],
            path: "Tests/Fuzz/Harness"),
        .testTarget(name: "MirrorFuzzingTests", dependencies: ["MirrorFuzzing", "MirrorDocument", "MirrorServer", "MirrorStore"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer executables (`fuzz-<target>`) hand control to libFuzzer's driver, which exists
// only when they are built with `-sanitize=fuzzer`. They are declared only when
// MTLS_MIRROR_FUZZ=1, so that a plain `swift build` never tries to link them; scripts/fuzz.sh
// sets it and builds them in their own scratch folder.
if Context.environment["MTLS_MIRROR_FUZZ"] == "1" {
    package.targets.append(.target(name: "CFuzzerDriver", path: "Tests/Fuzz/Driver"))
    for target in ["url-path", "html-rewrite", "css", "srcset", "http-request"] {
        package.targets.append(.executableTarget(
            name: "fuzz-\(target)", dependencies: ["MirrorFuzzing", "CFuzzerDriver"], path: "Tests/Fuzz/Targets/fuzz-\(target)"))
        package.products.append(.executable(name: "fuzz-\(target)", targets: ["fuzz-\(target)"]))
    }
}

// Concrete generic types (a `Dictionary` keyed by one of our types, an `Array` of a struct) are
// instantiated through metadata accessors rather than from mangled names: resolving a mangled
// name makes the runtime look the generic arguments' conformances up by scanning the binary's
// 5,700 conformance records, once per type per process, and a mirror run paid 4–6 ms of CPU for
// it, about 2 ms of them before its first request (issue #27; measured in README "The start
// of a run"). The accessors make the code 0.1 % larger.
//
// Every Swift target also gets libxml2's header folder: importing a module that imports
// CLibXML2 or CMirrorShims reads libxml2's headers.
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]
            + libxml2HeaderFolders.flatMap { ["-Xcc", "-I" + $0] }),
    ]
}
