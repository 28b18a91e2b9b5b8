import Foundation
import MirrorScheduler
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// A config of three sites with real secret files beside it: a PKCS#12 with its password in a
/// file, one whose password comes from an environment variable (and which serve fetches
/// live), and one with an Authorization header from a file; two private CA files.
struct FleetFixture {
    let folder: TemporaryDirectory
    let password: String
    let environmentPassword = "env-" + UUID().uuidString
    let token = "tok-" + UUID().uuidString
    let identityBytes: Data
    var configPath: String { folder.path + "/fleet.json" }

    init(extraSite: String = "") throws {
        folder = try TemporaryDirectory(prefix: "fleet")
        let pki = try TestPKI.shared()
        password = pki.password
        identityBytes = try Data(contentsOf: pki.url("client.p12"))
        try identityBytes.write(to: folder.appending("me.p12"))
        try (password + "\n").write(toFile: folder.path + "/p12.pass", atomically: true, encoding: .utf8)
        try token.write(toFile: folder.path + "/api.token", atomically: true, encoding: .utf8)
        try """
            {"output": "/srv/mirrors", "serve": {"port": 8090},
             "sites": [
              {"name": "intranet", "start": ["https://intranet.example/"],
               "identity": {"cert": "me.p12", "password": {"file": "p12.pass"}},
               "trust": {"default": {"type": "default", "cacert": ["\(pki.path("server-root.pem"))"]}},
               "refresh": {"every": "6h", "jitter": "10m"}},
              {"name": "Wiki_2", "start": ["https://wiki.example/"],
               "identity": {"cert": "me.p12", "password": {"env": "WIKI_PASS"}},
               "trust": {"hosts": {"wiki.example": {"type": "composite", "policies": [
                 {"type": "default", "cacert": ["\(pki.path("server-root.pem"))"]}, {"type": "revocation", "crl": ["\(pki.path("client-root.pem"))"], "cacert": ["\(pki.path("client-root.pem"))"]}]}}},
               "refresh": {"every": "45m"}, "serve": {"live": true}},
              {"name": "docs", "start": ["https://docs.example/"],
               "http": {"headers": {"Authorization": {"file": "api.token"}}},
               "limits": {"runTime": "2h"}, "refresh": {"every": "1d"}},
              {"name": "manual", "start": ["https://manual.example/"]}\(extraSite)
             ]}
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Runs the built binary's `schedule --print-kubernetes` on the fixture.
    func print(_ extra: [String] = []) -> CommandRunner.Result {
        CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"), workingDirectory: folder.url)
            .run(["schedule", "--config", configPath, "--print-kubernetes"] + extra, environment: ["WIKI_PASS": environmentPassword])
    }

    /// The documents of a manifest file, parsed by PyYAML (kubernetes-validate's own parser).
    static func documents(_ file: String) throws -> [[String: Any]] {
        let python = PythonTools.environment(of: "kubernetes-validate").appendingPathComponent("bin/python")
        let read = CommandRunner(executable: python).run(
            ["-c", "import json, sys, yaml; print(json.dumps([d for d in yaml.safe_load_all(open(sys.argv[1])) if d is not None]))", file])
        guard read.succeeded else {
            throw DebianPackage.Failure(message: "PyYAML comes with kubernetes-validate: run scripts/install-deps.sh (\(read))")
        }
        return try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]] ?? []
    }
}

/// Digs into parsed YAML: `value["spec", "jobTemplate", "spec"]`.
extension Dictionary where Key == String, Value == Any {
    subscript(path: String...) -> Any? {
        var current: Any? = self
        for key in path { current = (current as? [String: Any])?[key] }
        return current
    }
}

@Suite struct KubernetesManifestTests {
    @Test("three scheduled sites: three CronJobs, one Deployment and Service, one volume, one ConfigMap, no Secret, and kubernetes-validate accepts it all")
    func fleetValidates() throws {
        let fixture = try FleetFixture()
        let result = fixture.print(["--namespace", "mirrors", "--image", "registry.example/mtls-mirror:0.1.0", "--storage-class", "nfs-client"])
        try #require(result.succeeded, "\(result)")
        let file = fixture.folder.path + "/fleet.yaml"
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let validate = try PythonTools.runner("kubernetes-validate").run(["--strict", "-k", "1.31.0", file], timeout: 120)
        #expect(validate.succeeded, "\(validate)")
        #expect(validate.stdout.components(separatedBy: " passed for resource ").count - 1 == 7, "\(validate)")
        #expect(!validate.stdout.contains("ERROR") && !validate.stderr.contains("ERROR"), "\(validate)")

        let documents = try FleetFixture.documents(file)
        let kinds = documents.compactMap { $0["kind"] as? String }
        #expect(kinds.sorted() == ["ConfigMap", "CronJob", "CronJob", "CronJob", "Deployment", "PersistentVolumeClaim", "Service"], "\(kinds)")
        #expect(!kinds.contains("Secret"))
        #expect(documents.allSatisfy { $0["metadata", "namespace"] as? String == "mirrors" })
        #expect(result.stderr.contains("Wiki_2: cron cannot repeat every 45min"), "\(result.stderr)")
        #expect(result.stdout.contains("Wiki_2: refresh.every 45min -> \"*/30 * * * *\", cron cannot repeat every 45min"))

        let jobs = documents.filter { $0["kind"] as? String == "CronJob" }
        #expect(jobs.map { $0["metadata", "annotations", "mtls-mirror/site"] as? String } == ["intranet", "Wiki_2", "docs"])
        #expect(jobs.map { $0["spec", "schedule"] as? String } == ["0 */6 * * *", "*/30 * * * *", "0 0 * * *"])
        #expect(jobs.map { $0["spec", "jobTemplate", "spec", "activeDeadlineSeconds"] as? Int } == [21_600, 1800, 7_200 + RunDeadline.margin], "docs: its run budget bounds the pod")
        for job in jobs {
            #expect(job["spec", "concurrencyPolicy"] as? String == "Forbid")
            let pod = try #require(job["spec", "jobTemplate", "spec", "template", "spec"] as? [String: Any])
            #expect(pod["restartPolicy"] as? String == "Never")
            #expect(pod["automountServiceAccountToken"] as? Bool == false)
            #expect(pod["securityContext", "runAsNonRoot"] as? Bool == true)
            #expect(pod["securityContext", "runAsUser"] as? Int == KubernetesFleet.PodLayout.user)
            let container = try #require((pod["containers"] as? [[String: Any]])?.first)
            #expect(container["image"] as? String == "registry.example/mtls-mirror:0.1.0")
            #expect(container["securityContext", "readOnlyRootFilesystem"] as? Bool == true)
            #expect(container["securityContext", "allowPrivilegeEscalation"] as? Bool == false)
            #expect(container["resources", "requests", "memory"] as? String == "128Mi")
            #expect(container["resources", "limits", "memory"] as? String == "256Mi")
            #expect(container["env"] == nil && container["envFrom"] == nil, "no secret goes through the environment")
            let claims = (pod["volumes"] as? [[String: Any]])?.compactMap { $0["persistentVolumeClaim", "claimName"] as? String }
            #expect(claims == ["mtls-mirror-data"])
        }
        let claim = try #require(documents.first { $0["kind"] as? String == "PersistentVolumeClaim" })
        #expect(claim["spec", "accessModes"] as? [String] == ["ReadWriteMany"])
        #expect(claim["spec", "storageClassName"] as? String == "nfs-client")
        let service = try #require(documents.first { $0["kind"] as? String == "Service" })
        #expect((service["spec", "ports"] as? [[String: Any]])?.first?["port"] as? Int == 8090)
    }

    @Test("no secret is in the text; each site's Secret is mounted read-only in its own pods only, and in serve only for live fetch")
    func secretsStayOut() throws {
        let fixture = try FleetFixture()
        let result = fixture.print()
        try #require(result.succeeded, "\(result)")
        for secret in [fixture.password, fixture.environmentPassword, fixture.token, fixture.identityBytes.base64EncodedString()] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret is in the output")
        }
        let file = fixture.folder.path + "/fleet.yaml"
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let documents = try FleetFixture.documents(file)
        func secretMounts(_ pod: [String: Any]) -> [String: String] {
            let volumes = (pod["volumes"] as? [[String: Any]]) ?? []
            let names = Dictionary(uniqueKeysWithValues: volumes.compactMap { volume -> (String, String)? in
                guard let secret = volume["secret", "secretName"] as? String, let name = volume["name"] as? String else { return nil }
                #expect(volume["secret", "defaultMode"] as? Int == 0o440)
                return (name, secret)
            })
            var mounts: [String: String] = [:]
            for container in (pod["containers"] as? [[String: Any]]) ?? [] {
                for mount in (container["volumeMounts"] as? [[String: Any]]) ?? [] {
                    guard let name = mount["name"] as? String, let secret = names[name] else { continue }
                    #expect(mount["readOnly"] as? Bool == true, "\(secret) is mounted writable")
                    mounts[secret] = mount["mountPath"] as? String
                }
            }
            return mounts
        }
        let jobs = documents.filter { $0["kind"] as? String == "CronJob" }
        let perJob = try jobs.map { try #require($0["spec", "jobTemplate", "spec", "template", "spec"] as? [String: Any]) }.map(secretMounts)
        #expect(perJob == [
            ["mtls-mirror-intranet-identity": "/etc/mtls-mirror/secrets/intranet"],
            [KubernetesFleet.Site(name: "Wiki_2", schedule: .init(every: 60), deadline: .init(runBudget: 1, every: 1, requestTimeout: 1, retries: 0),
                                  memory: .refresh(jobs: 1), secretKeys: [], live: true).secretName: "/etc/mtls-mirror/secrets/Wiki_2"],
            ["mtls-mirror-docs-identity": "/etc/mtls-mirror/secrets/docs"],
        ])
        let deployment = try #require(documents.first { $0["kind"] as? String == "Deployment" })
        let serveMounts = secretMounts(try #require(deployment["spec", "template", "spec"] as? [String: Any]))
        #expect(Set(serveMounts.keys) == ["mtls-mirror-serve-token", perJob[1].keys.first ?? "?"], "serve gets the token and the live site's identity only: \(serveMounts)")
        // The header says how to create each Secret from the files, without their content.
        #expect(result.stdout.contains("kubectl create secret generic mtls-mirror-intranet-identity --from-file=identity=\(fixture.folder.path)/me.p12 --from-file=password=\(fixture.folder.path)/p12.pass"))
        #expect(result.stdout.contains("--from-file=password=<(printf %s \"$WIKI_PASS\")"))
        #expect(result.stdout.contains("kubectl create secret generic mtls-mirror-docs-identity --from-file=header-1=\(fixture.folder.path)/api.token"))
        #expect(result.stdout.contains("kubectl create secret generic mtls-mirror-serve-token --from-file=token=<(openssl rand -hex 32)"))
    }

    @Test("the ConfigMap's config.json is a valid config that reads its secrets from the mounts and its CA files from the ConfigMap")
    func clusterConfigLoads() throws {
        let fixture = try FleetFixture()
        let result = fixture.print()
        try #require(result.succeeded, "\(result)")
        let file = fixture.folder.path + "/fleet.yaml"
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let configMap = try #require(try FleetFixture.documents(file).first { $0["kind"] as? String == "ConfigMap" })
        let data = try #require(configMap["data"] as? [String: String])
        // Lay the ConfigMap out as the pod sees it, under a scratch folder standing in for /etc/mtls-mirror/config.
        let mount = try TemporaryDirectory(prefix: "configmap")
        for (key, text) in data { try text.write(toFile: mount.path + "/" + key, atomically: true, encoding: .utf8) }
        let text = try #require(data["config.json"]).replacingOccurrences(of: KubernetesFleet.PodLayout.configFolder + "/", with: mount.path + "/")
        let config = try MirrorConfig.parse(Data(text.utf8), path: mount.path + "/config.json")
        #expect(config.sites.map(\.name) == ["intranet", "Wiki_2", "docs"], "the on-demand site is not in the fleet")
        #expect(config.output == "/var/lib/mtls-mirror")
        #expect(config.sites[0].identity?.certificate == "/etc/mtls-mirror/secrets/intranet/identity")
        #expect(config.sites[0].identity?.password == .file("/etc/mtls-mirror/secrets/intranet/password"))
        #expect(config.sites[1].identity?.password == .file("/etc/mtls-mirror/secrets/Wiki_2/password"), "the env password became a file")
        #expect(config.sites[2].http.headers.first?.value == .reference(.file("/etc/mtls-mirror/secrets/docs/header-1")))
        #expect(config.serve.bind == "0.0.0.0" && config.serve.allowRemote && config.serve.tokenFile == "/etc/mtls-mirror/serve/token")
        #expect(config.serve.port == 8090)
        // The two CA files (one named twice) are two keys, and the CRL policy kept its files.
        #expect(data.keys.filter { $0.hasPrefix("file-") }.count == 2, "\(data.keys.sorted())")
        #expect(config.sites[1].trust.files.allSatisfy { $0.hasPrefix(mount.path + "/file-") })
    }

    static let misuse: [[String]] = [
        ["--print-kubernetes", "--print-systemd"], ["--print-kubernetes", "--user", "me"], ["--print-kubernetes", "-o", "/srv"],
        ["--print-kubernetes", "--namespace", "Bad_NS"], ["--print-kubernetes", "--volume-size", "10GB"],
        ["--print-kubernetes", "--image", "has space"], ["--print-kubernetes", "--once"], ["--print-kubernetes", "--site", "manual"],
    ]

    @Test("options that do not apply and bad values are usage errors (exit 2) with a try: line, and print nothing", arguments: misuse)
    func refusals(arguments: [String]) throws {
        let fixture = try FleetFixture()
        let result = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"), workingDirectory: fixture.folder.url)
            .run(["schedule", "--config", fixture.configPath] + arguments)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("try:"), "\(result)")
    }

    @Test("kubernetes-validate is a real check: a wrong field or value in the same manifests fails it")
    func validatorCatchesMistakes() throws {
        let fixture = try FleetFixture()
        let result = fixture.print()
        try #require(result.succeeded, "\(result)")
        for (good, bad) in [("concurrencyPolicy: \"Forbid\"", "concurrencyPolicy: 7"), ("readOnlyRootFilesystem: true", "readOnlyRootFileSystem: true")] {
            let file = fixture.folder.path + "/broken.yaml"
            try #require(result.stdout.contains(good))
            try result.stdout.replacingOccurrences(of: good, with: bad).write(toFile: file, atomically: true, encoding: .utf8)
            let validate = try PythonTools.runner("kubernetes-validate").run(["--strict", "-k", "1.31.0", file], timeout: 120)
            #expect(validate.exitCode != 0, "\(bad) passed: \(validate)")
        }
    }
}
