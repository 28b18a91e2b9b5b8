import Foundation
import MirrorTestSupport
import Testing

/// The `.deb` that `scripts/package-deb.sh` builds, once per test run and shared by the tests
/// below. The script reuses a current release build (in `.build/release`, or in
/// `.build/package-release`, where it builds one when it must: `swift test` holds the lock of
/// `.build` itself), and compresses with gzip here, which is five times faster than xz and
/// changes nothing inside the package.
final class DebianPackage: Sendable {
    let folder: TemporaryDirectory
    let deb: URL
    let control: [String: String]

    static let shared = Result { try DebianPackage() }

    private init() throws {
        let root = try RepositoryRoot.locate()
        folder = try TemporaryDirectory(prefix: "deb")
        let script = CommandRunner(executable: URL(fileURLWithPath: "/bin/bash"), workingDirectory: root)
        let built = script.run(["scripts/package-deb.sh", "--out", folder.path, "--scratch-path", ".build/package-release", "--compress", "gzip"],
                               timeout: 1800)
        guard built.succeeded, let path = built.stdout.split(separator: "\n").last.map(String.init) else {
            throw Failure(message: "scripts/package-deb.sh failed: \(built)")
        }
        deb = URL(fileURLWithPath: path)
        let fields = CommandRunner(executable: try Self.tool("dpkg-deb")).run(["-f", path])
        guard fields.succeeded else { throw Failure(message: "dpkg-deb -f: \(fields)") }
        var control: [String: String] = [:]
        for line in fields.stdout.split(separator: "\n") where !line.hasPrefix(" ") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            control[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.control = control
    }

    /// The package built for this run; a failed build fails each test that needs it.
    static func get() throws -> DebianPackage { try shared.get() }

    /// The package names of a relation field: `libc6 (>= 2.35), libcurl4 (>= 7.68.0)` → [libc6, libcurl4].
    func packages(_ field: String) -> [String] {
        (control[field] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? "" }
    }

    /// A tool the packaging tests need; a missing one fails with the install step.
    static func tool(_ name: String) throws -> URL {
        guard let url = CommandRunner.tool(named: name) else { throw Failure(message: "\(name) is not installed: run scripts/install-deps.sh") }
        return url
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// The libraries Debian has on every system that runs Swift code (libc, libgcc_s), and the ones
/// the tool is built on. The C++ runtime (libstdc++6) and SQLite (libsqlite3-0) are not among
/// them: the release build links both in (scripts/build-release.sh, Package.swift).
let allowedDependencies: Set = ["libc6", "libgcc-s1", "libcurl4", "libssl3", "libxml2", "libp11-3", "zlib1g", "libdeflate0", "libbrotli1"]

@Suite(.serialized) struct DebianPackageTests {
    @Test("lintian reports no error and no warning (the one intended deviation is overridden)")
    func lintianIsClean() throws {
        let package = try DebianPackage.get()
        let lintian = CommandRunner(executable: try DebianPackage.tool("lintian"))
        let result = lintian.run(["--fail-on", "error,warning", package.deb.path], timeout: 300)
        let tags = result.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        #expect(result.exitCode == 0, "\(result)")
        #expect(tags.isEmpty, "\(tags)")
        // The check can fail: a package without a copyright file is an error.
        let broken = try TemporaryDirectory(prefix: "deb-broken")
        try FileManager.default.createDirectory(atPath: broken.path + "/root/DEBIAN", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: broken.path + "/root/usr/share/broken", withIntermediateDirectories: true)
        try "x\n".write(toFile: broken.path + "/root/usr/share/broken/file", atomically: true, encoding: .utf8)
        try """
            Package: broken
            Version: 1.0
            Architecture: all
            Maintainer: Nobody <nobody@example.org>
            Description: a package lintian must refuse
             It has no copyright file.

            """.write(toFile: broken.path + "/root/DEBIAN/control", atomically: true, encoding: .utf8)
        let built = CommandRunner(executable: try DebianPackage.tool("dpkg-deb")).run(
            ["--root-owner-group", "-Zgzip", "--build", broken.path + "/root", broken.path + "/broken_1.0_all.deb"])
        try #require(built.succeeded, "\(built)")
        let refused = lintian.run(["--fail-on", "error,warning", broken.path + "/broken_1.0_all.deb"], timeout: 300)
        #expect(refused.exitCode != 0 && refused.stdout.contains("E: broken: no-copyright-file"), "\(refused)")
    }

    @Test("Depends: is dpkg-shlibdeps' answer, names only libc, libgcc_s, libcurl, libxml2, OpenSSL, libp11, zlib, libdeflate and Brotli; Chromium is only suggested")
    func dependsOnlyOnTheSystemLibraries() throws {
        let package = try DebianPackage.get()
        let depends = Set(package.packages("Depends"))
        #expect(depends.isSubset(of: allowedDependencies), "Depends: \(package.control["Depends"] ?? "")")
        #expect(depends.isSuperset(of: ["libcurl4", "libssl3", "libxml2", "libc6"]), "Depends: \(package.control["Depends"] ?? "")")
        #expect(package.packages("Suggests") == ["chromium"])
        #expect(package.packages("Recommends") == ["ca-certificates"])
        #expect(!package.packages("Depends").contains("chromium"))
        #expect(package.control["Package"] == "mtls-mirror" && package.control["Architecture"] == "amd64")
        #expect(package.deb.lastPathComponent == "mtls-mirror_\(package.control["Version"] ?? "?")_amd64.deb")
    }

    @Test("every library the packaged binary loads belongs to a package of Depends:, and none is Swift's, the C++ runtime or SQLite")
    func binaryNeedsNothingElse() throws {
        let package = try DebianPackage.get()
        let tree = try TemporaryDirectory(prefix: "deb-tree")
        let extracted = CommandRunner(executable: try DebianPackage.tool("dpkg-deb")).run(["-x", package.deb.path, tree.path])
        try #require(extracted.succeeded, "\(extracted)")
        let binary = tree.path + "/usr/bin/mtls-mirror"
        let ldd = CommandRunner(executable: try DebianPackage.tool("ldd")).run([binary])
        try #require(ldd.succeeded, "\(ldd)")
        // The binary's own NEEDED entries; their dependencies are their packages' business.
        let dynamic = CommandRunner(executable: try DebianPackage.tool("readelf")).run(["-d", binary])
        let needed = Set(dynamic.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        })
        // libcurl, libxml2, Brotli's decoder, libdeflate and libp11 are opened at run time
        // (dlopen), not linked: their packages are looked up below.
        let opened = [("libcurl.so.4", "libcurl4"), ("libxml2.so.2", "libxml2"), ("libbrotlidec.so.1", "libbrotli1"),
                      ("libdeflate.so.0", "libdeflate0"), ("libp11.so.3", "libp11-3")]
        #expect(opened.allSatisfy { !needed.contains($0.0) } && needed.contains("libc.so.6"), "\(dynamic)")
        // Linked in from static archives, so not loaded at start (README, "The start of a run").
        #expect(!needed.contains("libstdc++.so.6") && !needed.contains("libsqlite3.so.0"), "\(dynamic)")
        let depends = Set(package.packages("Depends"))
        var owners: [String: String] = [:]
        for line in ldd.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[1] == "=>" else { continue }
            let name = String(parts[0].trimmingCharacters(in: .whitespaces))
            guard needed.contains(name) else { continue }
            #expect(!name.hasPrefix("libswift") && !name.hasPrefix("libFoundation") && !name.hasPrefix("libdispatch"), "\(name)")
            let path = String(parts[2])
            #expect(path != "not", "\(name) is not found on this system")
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            // usrmerge: dpkg knows a library by the path its package ships (/lib or /usr/lib).
            let candidates = [path, resolved, resolved.replacingOccurrences(of: "/usr/lib/", with: "/lib/"),
                              resolved.replacingOccurrences(of: "/lib/", with: "/usr/lib/")]
            let query = CommandRunner(executable: try DebianPackage.tool("dpkg")).run(["-S"] + Array(Set(candidates)))
            let owner = query.stdout.split(separator: "\n").first.flatMap { $0.split(separator: ":").first }.map(String.init)
            owners[name] = owner
            #expect(owner.map { depends.contains($0) } == true, "\(name) (\(path)) belongs to \(owner ?? "no package"), not to Depends: \(depends.sorted())")
        }
        #expect(owners["libssl.so.3"] == "libssl3", "\(owners)")
        // The libraries the loader finds for dlopen belong to libcurl4 (the OpenSSL flavour),
        // libxml2, libbrotli1, libdeflate0 and libp11-3, packages of Depends:.
        let cache = CommandRunner(executable: URL(fileURLWithPath: "/sbin/ldconfig")).run(["-p"])
        for (library, expected) in opened {
            let line = cache.stdout.split(separator: "\n").first { $0.contains(library + " ") && $0.contains("x86-64") }
            var paths: [String] = []
            if let line, let arrow = line.range(of: "=> ") {
                let path = String(line[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)
                let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                paths = Array(Set([path, resolved, resolved.replacingOccurrences(of: "/usr/lib/", with: "/lib/"),
                                   resolved.replacingOccurrences(of: "/lib/", with: "/usr/lib/")]))
            }
            try #require(!paths.isEmpty, "ldconfig -p has no \(library): \(cache)")
            let owner = CommandRunner(executable: try DebianPackage.tool("dpkg")).run(["-S"] + paths)
                .stdout.split(separator: "\n").first.flatMap { $0.split(separator: ":").first }.map(String.init)
            #expect(owner == expected && depends.contains(expected), "\(library) belongs to \(owner ?? "no package"); Depends: \(depends.sorted())")
        }
        #expect(Set(owners.keys) == needed.subtracting(["ld-linux-x86-64.so.2"]), "every NEEDED library was looked up: \(owners)")
    }

    @Test("the package holds the binary, man page, completions, units, docs and maintainer scripts at their paths")
    func contents() throws {
        let package = try DebianPackage.get()
        let listing = CommandRunner(executable: try DebianPackage.tool("dpkg-deb")).run(["-c", package.deb.path])
        try #require(listing.succeeded)
        let expected = [
            "-rwxr-xr-x root/root .* ./usr/bin/mtls-mirror$",
            "-rw-r--r-- root/root .* ./usr/share/man/man1/mtls-mirror.1.gz$",
            "-rw-r--r-- root/root .* ./usr/share/bash-completion/completions/mtls-mirror$",
            "-rw-r--r-- root/root .* ./usr/share/zsh/vendor-completions/_mtls-mirror$",
            "-rw-r--r-- root/root .* ./usr/share/fish/vendor_completions.d/mtls-mirror.fish$",
            "-rw-r--r-- root/root .* ./lib/systemd/system/mtls-mirror-refresh@.service$",
            "-rw-r--r-- root/root .* ./lib/systemd/system/mtls-mirror-refresh@.timer$",
            "-rw-r--r-- root/root .* ./lib/systemd/system/mtls-mirror-serve.service$",
            "-rw-r--r-- root/root .* ./usr/share/doc/mtls-mirror/copyright$",
            "-rw-r--r-- root/root .* ./usr/share/doc/mtls-mirror/changelog.gz$",
            "-rw-r--r-- root/root .* ./usr/share/doc/mtls-mirror/examples/config.json$",
            "drwx------ root/root .* ./etc/mtls-mirror/credentials/$",
        ]
        for pattern in expected {
            #expect(listing.stdout.split(separator: "\n").contains { $0.range(of: pattern, options: .regularExpression) != nil }, "\(pattern)")
        }
        let control = CommandRunner(executable: try DebianPackage.tool("dpkg-deb")).run(["-I", package.deb.path])
        for script in ["postinst", "prerm", "postrm", "md5sums"] { #expect(control.stdout.contains(" \(script) "), "\(script)") }
        #expect(!listing.stdout.contains("./etc/mtls-mirror/config.json"), "no config is shipped in /etc: the operator writes it")
    }
}
