// swift-tools-version:6.0
// The benchmark's fetch floor: mtls-mirror's HTTP engine fetching a known list of URLs, and
// nothing else (see Benchmarks/README.md, `--fetch-floor`). Not part of the product.
import PackageDescription

let package = Package(
    name: "fetch-floor",
    dependencies: [.package(name: "mtls-mirror", path: "../..")],
    targets: [
        .executableTarget(name: "fetch-floor", dependencies: [.product(name: "MirrorKit", package: "mtls-mirror")]),
    ]
)
