extension KubernetesManifests {
    /// Exit codes after which a retry cannot help (README "Exit codes"): usage or config (2),
    /// client identity (3), server trust (4), certificate rejected (5), site busy (11). The
    /// others (network, HTTP, partial, interrupted) are retried up to `backoffLimit`.
    static let finalExitCodes = [2, 3, 4, 5, 11]
    /// Retries of a failed refresh pod.
    static let backoffLimit = 2

    /// One site's CronJob: `refresh --config … SITE` on the site's schedule, never two at once.
    static func cronJob(_ site: KubernetesFleet.Site, fleet: KubernetesFleet) -> ManifestValue {
        let name = site.objectName
        var mounts = [mount("config", KubernetesFleet.PodLayout.configFolder, readOnly: true)]
        var volumes = [configVolume()]
        if !site.secretKeys.isEmpty {
            mounts.append(mount("identity", KubernetesFleet.PodLayout.secretsFolder + "/" + site.name, readOnly: true))
            volumes.append(secretVolume("identity", secretName: site.secretName))
        }
        mounts += [mount("mirrors", KubernetesFleet.PodLayout.outputRoot, readOnly: false), mount("tmp", "/tmp", readOnly: false)]
        volumes += [mirrorsVolume(), temporaryVolume()]
        let container = ManifestValue.object([
            ("name", .string("refresh")),
            ("image", .string(fleet.image)),
            ("imagePullPolicy", .string("IfNotPresent")),
            ("command", .list([.string("/usr/bin/mtls-mirror")])),
            ("args", .list(["refresh", "--config", KubernetesFleet.PodLayout.configPath, site.name].map(ManifestValue.string))),
            ("resources", resources(site.memory, cpu: "500m")),
            ("securityContext", containerSecurity()),
            ("volumeMounts", .list(mounts)),
        ])
        let pod = ManifestValue.object([
            ("metadata", .object([("labels", labels(component: "refresh", instance: name))])),
            ("spec", podSpec(containers: [container], volumes: volumes, restartPolicy: "Never", grace: 60)),
        ])
        let job = ManifestValue.object([
            ("activeDeadlineSeconds", .int(site.deadline.seconds)),
            ("backoffLimit", .int(backoffLimit)),
            ("podFailurePolicy", .object([("rules", .list([
                .object([("action", .string("FailJob")), ("onExitCodes", .object([
                    ("containerName", .string("refresh")), ("operator", .string("In")), ("values", .list(finalExitCodes.map(ManifestValue.int))),
                ]))]),
                .object([("action", .string("Ignore")), ("onPodConditions", .list([.object([("type", .string("DisruptionTarget")), ("status", .string("True"))])]))]),
            ]))])),
            ("template", pod),
        ])
        return .object([
            ("apiVersion", .string("batch/v1")),
            ("kind", .string("CronJob")),
            ("metadata", metadata(name, component: "refresh", fleet: fleet, annotations: [
                ("mtls-mirror/site", site.name),
                ("mtls-mirror/refresh-every", UnitFiles.timeSpan(site.schedule.requested)),
            ])),
            ("spec", .object([
                ("schedule", .string(site.schedule.fields)),
                ("timeZone", .string("Etc/UTC")),
                ("concurrencyPolicy", .string("Forbid")),
                ("startingDeadlineSeconds", .int(Int(min(site.schedule.every, 3600)))),
                ("successfulJobsHistoryLimit", .int(3)),
                ("failedJobsHistoryLimit", .int(3)),
                ("jobTemplate", .object([
                    ("metadata", .object([("labels", labels(component: "refresh", instance: name))])),
                    ("spec", job),
                ])),
            ])),
        ])
    }

    /// `serve` over the same volume: read-only unless a site fetches live, with the access
    /// token (and a live site's Secret) mounted read-only.
    static func deployment(_ fleet: KubernetesFleet) -> ManifestValue {
        let live = fleet.sites.filter { $0.live && !$0.secretKeys.isEmpty }
        var mounts = [
            mount("config", KubernetesFleet.PodLayout.configFolder, readOnly: true),
            mount("serve-token", KubernetesFleet.PodLayout.serveTokenFolder, readOnly: true),
        ]
        var volumes = [configVolume(), secretVolume("serve-token", secretName: KubernetesFleet.Names.serveToken)]
        for (index, site) in live.enumerated() {
            mounts.append(mount("identity-\(index + 1)", KubernetesFleet.PodLayout.secretsFolder + "/" + site.name, readOnly: true))
            volumes.append(secretVolume("identity-\(index + 1)", secretName: site.secretName))
        }
        mounts += [mount("mirrors", KubernetesFleet.PodLayout.outputRoot, readOnly: !fleet.sites.contains { $0.live }),
                   mount("tmp", "/tmp", readOnly: false)]
        volumes += [mirrorsVolume(), temporaryVolume()]
        let probe = ManifestValue.object([("tcpSocket", .object([("port", .string("http"))])), ("periodSeconds", .int(10))])
        let container = ManifestValue.object([
            ("name", .string("serve")),
            ("image", .string(fleet.image)),
            ("imagePullPolicy", .string("IfNotPresent")),
            ("command", .list([.string("/usr/bin/mtls-mirror")])),
            ("args", .list(["serve", "--config", KubernetesFleet.PodLayout.configPath].map(ManifestValue.string))),
            ("ports", .list([.object([("name", .string("http")), ("containerPort", .int(fleet.servePort))])])),
            ("readinessProbe", probe),
            ("livenessProbe", probe),
            ("resources", resources(MemoryBudget.serve(live: fleet.sites.contains { $0.live }), cpu: "100m")),
            ("securityContext", containerSecurity()),
            ("volumeMounts", .list(mounts)),
        ])
        return .object([
            ("apiVersion", .string("apps/v1")),
            ("kind", .string("Deployment")),
            ("metadata", metadata(KubernetesFleet.Names.serve, component: "serve", fleet: fleet)),
            ("spec", .object([
                ("replicas", .int(1)),
                ("selector", .object([("matchLabels", labels(component: "serve"))])),
                ("template", .object([
                    ("metadata", .object([("labels", labels(component: "serve", instance: KubernetesFleet.Names.serve))])),
                    ("spec", podSpec(containers: [container], volumes: volumes, restartPolicy: nil, grace: 30)),
                ])),
            ])),
        ])
    }

    private static func podSpec(containers: [ManifestValue], volumes: [ManifestValue], restartPolicy: String?, grace: Int) -> ManifestValue {
        let user = KubernetesFleet.PodLayout.user
        return .object([
            ("restartPolicy", restartPolicy.map(ManifestValue.string)),
            ("automountServiceAccountToken", .bool(false)),
            ("enableServiceLinks", .bool(false)),
            ("terminationGracePeriodSeconds", .int(grace)),
            ("securityContext", .object([
                ("runAsNonRoot", .bool(true)),
                ("runAsUser", .int(user)),
                ("runAsGroup", .int(user)),
                ("fsGroup", .int(user)),
                ("seccompProfile", .object([("type", .string("RuntimeDefault"))])),
            ])),
            ("containers", .list(containers)),
            ("volumes", .list(volumes)),
        ])
    }

    private static func containerSecurity() -> ManifestValue {
        .object([
            ("allowPrivilegeEscalation", .bool(false)),
            ("readOnlyRootFilesystem", .bool(true)),
            ("capabilities", .object([("drop", .list([.string("ALL")]))])),
        ])
    }

    private static func resources(_ memory: MemoryBudget, cpu: String) -> ManifestValue {
        .object([
            ("requests", .object([("cpu", .string(cpu)), ("memory", .string("\(memory.requestMiB)Mi"))])),
            ("limits", .object([("memory", .string("\(memory.limitMiB)Mi"))])),
        ])
    }

    private static func mount(_ name: String, _ path: String, readOnly: Bool) -> ManifestValue {
        .object([("name", .string(name)), ("mountPath", .string(path)), ("readOnly", readOnly ? .bool(true) : nil)])
    }

    private static func configVolume() -> ManifestValue {
        .object([("name", .string("config")), ("configMap", .object([("name", .string(KubernetesFleet.Names.config))]))])
    }

    /// A Secret as files readable by the pod's group only (0440: the files belong to root and
    /// to the pod's `fsGroup`).
    private static func secretVolume(_ name: String, secretName: String) -> ManifestValue {
        .object([("name", .string(name)), ("secret", .object([("secretName", .string(secretName)), ("defaultMode", .int(0o440))]))])
    }

    private static func mirrorsVolume() -> ManifestValue {
        .object([("name", .string("mirrors")), ("persistentVolumeClaim", .object([("claimName", .string(KubernetesFleet.Names.volume))]))])
    }

    private static func temporaryVolume() -> ManifestValue {
        .object([("name", .string("tmp")), ("emptyDir", .object([("sizeLimit", .string("64Mi"))]))])
    }
}
