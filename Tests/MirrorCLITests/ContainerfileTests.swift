import Foundation
import MirrorTestSupport
import Testing

/// `packaging/Containerfile`: no container tool runs here, so the image is not built; what can
/// be checked without one is checked: the runtime stage installs exactly the `.deb`'s
/// Depends: and Recommends:, the binary comes from the build stage's release build, and the
/// image runs as a non-root user.
@Suite struct ContainerfileTests {
    struct Recipe {
        let text: String
        let root: URL

        init() throws {
            root = try RepositoryRoot.locate()
            text = try String(contentsOf: root.appendingPathComponent("packaging/Containerfile"), encoding: .utf8)
        }

        /// Instructions, with `\` continuations joined and comments dropped.
        var instructions: [String] {
            var result: [String] = []
            var current = ""
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if current.isEmpty && (line.isEmpty || line.hasPrefix("#")) { continue }
                if line.hasSuffix("\\") {
                    current += line.dropLast().trimmingCharacters(in: .whitespaces) + " "
                } else {
                    result.append(current + line)
                    current = ""
                }
            }
            return result
        }

        /// The words of `ARG NAME="…"`.
        func argument(_ name: String) -> [String]? {
            for instruction in instructions where instruction.hasPrefix("ARG \(name)=") {
                let value = instruction.dropFirst("ARG \(name)=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.split(separator: " ").map(String.init)
            }
            return nil
        }

        /// The instructions of each stage, split at `FROM`.
        var stages: [[String]] {
            var result: [[String]] = []
            for instruction in instructions {
                if instruction.hasPrefix("FROM ") { result.append([instruction]) } else if !result.isEmpty { result[result.count - 1].append(instruction) }
            }
            return result
        }
    }

    @Test("the runtime packages are the .deb's Depends: and Recommends:, name for name")
    func runtimePackagesMatchTheDeb() throws {
        let recipe = try Recipe()
        let package = try DebianPackage.get()
        let runtime = try #require(recipe.argument("RUNTIME_PACKAGES"), "no ARG RUNTIME_PACKAGES in packaging/Containerfile")
        #expect(runtime.sorted() == package.packages("Depends").sorted(), "Containerfile \(runtime) vs Depends: \(package.control["Depends"] ?? "")")
        let recommended = try #require(recipe.argument("RECOMMENDED_PACKAGES"))
        #expect(recommended.sorted() == package.packages("Recommends").sorted())
        // The runtime stage installs those and nothing else (no -dev package, no toolchain).
        let runtimeStage = try #require(recipe.stages.last)
        let installs = runtimeStage.filter { $0.contains("apt-get install") }
        #expect(installs.count == 1, "\(installs)")
        #expect(installs.first?.contains("--no-install-recommends $RUNTIME_PACKAGES $RECOMMENDED_PACKAGES &&") == true, "\(installs)")
        #expect(!runtimeStage.joined().contains("-dev"))
    }

    @Test("two stages: the release build of build-release.sh, copied onto Debian 12 slim, run as a non-root user")
    func stagesAndUser() throws {
        let recipe = try Recipe()
        let stages = recipe.stages
        try #require(stages.count == 2, "\(stages.map(\.first))")
        #expect(stages[0][0].hasSuffix("-bookworm AS build"), "\(stages[0][0])")
        #expect(stages[0].contains { $0.contains("bash scripts/build-release.sh") })
        #expect(stages[1][0] == "FROM docker.io/library/debian:bookworm-slim")
        #expect(stages[1].contains("COPY --from=build /out/usr/bin/mtls-mirror /usr/bin/mtls-mirror"))
        let user = try #require(stages[1].last { $0.hasPrefix("USER ") })
        let uid = user.dropFirst("USER ".count).split(separator: ":").first.flatMap { Int($0) }
        #expect(uid != nil && uid != 0, "\(user)")
        #expect(stages[1].contains("ENTRYPOINT [\"/usr/bin/mtls-mirror\"]"))
        // Everything the build stage copies exists, and the ignore file lets it through.
        let ignore = try String(contentsOf: recipe.root.appendingPathComponent("packaging/Containerfile.dockerignore"), encoding: .utf8)
        for copy in stages[0] where copy.hasPrefix("COPY ") {
            let source = String(copy.split(separator: " ")[1])
            #expect(FileManager.default.fileExists(atPath: recipe.root.appendingPathComponent(source).path), "\(source)")
            #expect(ignore.contains("!\(source)"), "\(source) is not let through Containerfile.dockerignore")
        }
    }
}
