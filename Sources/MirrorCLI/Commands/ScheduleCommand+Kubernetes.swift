import Foundation
import MirrorHTTP
import MirrorScheduler

extension ScheduleCommand {
    /// `--print-kubernetes`: for each selected site with `refresh.every`, a CronJob; with them a
    /// ConfigMap holding the config as the pods see it, a ReadWriteMany PersistentVolumeClaim
    /// for the mirrors, and a Deployment and Service for `serve`. No Secret is written: the
    /// header lists the `kubectl create secret` commands that make them from the files.
    /// - Throws: ``UsageError`` for options that do not apply or bad values;
    ///   ``UnitFileError/noInterval(site:)`` for a site named with `--site` that has no interval.
    func kubernetesText(config: MirrorConfig, sites: [SiteConfig], configPath: String) throws -> String {
        if arguments.flag("print-systemd") || arguments.flag("print-cron") {
            throw UsageError("--print-kubernetes excludes --print-systemd and --print-cron", hint: "give one of them")
        }
        for option in ["user", "credential", "environment-file", "output", "executable"] where !arguments.all(option).isEmpty {
            throw UsageError("--\(option) does not apply to --print-kubernetes: the pods run the image's /usr/bin/mtls-mirror over the volume, with Secrets",
                             hint: "drop --\(option); see README, \"Run a fleet on Kubernetes\"")
        }
        if arguments.flag("once") { throw UsageError("--once does not apply to --print-kubernetes", hint: "drop --once") }
        let namespace = try arguments.value("namespace").map { text throws(UsageError) -> String in
            guard Self.isLabel(text) else {
                throw UsageError("--namespace \"\(text)\" is not a Kubernetes name", hint: "use lower-case letters, digits and '-', at most 63")
            }
            return text
        }
        let storageClass = try arguments.value("storage-class").map { text throws(UsageError) -> String in
            guard !text.isEmpty, text.count <= 253, text.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." }) else {
                throw UsageError("--storage-class \"\(text)\" is not a Kubernetes name", hint: "name a StorageClass of the cluster (kubectl get storageclass)")
            }
            return text
        }
        let volumeSize = arguments.value("volume-size") ?? "10Gi"
        guard volumeSize.range(of: "^[1-9][0-9]*(Ki|Mi|Gi|Ti|Pi|Ei)$", options: .regularExpression) != nil else {
            throw UsageError("--volume-size \"\(volumeSize)\" is not a size Kubernetes takes", hint: "use a whole number and a unit, e.g. 10Gi or 500Gi")
        }
        let image = arguments.value("image") ?? "mtls-mirror:\(MirrorVersion.string)"
        guard !image.isEmpty, !image.contains(where: { $0.isWhitespace || $0 == "\"" }) else {
            throw UsageError("--image \"\(image)\" is not an image reference", hint: "e.g. registry.example/mtls-mirror:\(MirrorVersion.string)")
        }

        let chosen = try scheduledSites(sites)
        let cluster = ClusterConfig(config, sites: chosen)
        let budget = MemoryBudget.refresh(jobs: config.jobs)
        var fleetSites: [KubernetesFleet.Site] = []
        var commands: [String] = []
        for site in chosen {
            let schedule = CronSchedule(every: site.refresh.every ?? 0)
            if schedule.wasShortened {
                logger.warning("\(site.name): cron cannot repeat every \(UnitFiles.timeSpan(schedule.requested)); its CronJob runs every \(UnitFiles.timeSpan(schedule.every)) (\(schedule.fields))")
            }
            if case .prompt = site.identity?.password {
                logger.warning("\(site.name): the password is \"prompt\", which a pod cannot answer; its Secret's key password must hold it")
            }
            // The site's run budget (limits.runTime), when it has one, bounds the pod.
            let deadline = RunDeadline(runBudget: site.limits.runTime, every: schedule.every, requestTimeout: site.limits.totalTimeout, retries: site.limits.retries)
            let keys = cluster.secrets[site.name]?.map(\.key) ?? []
            let fleetSite = KubernetesFleet.Site(name: site.name, schedule: schedule, deadline: deadline, memory: budget, secretKeys: keys, live: site.serve.live)
            if let command = cluster.secretCommand(site: site.name, name: fleetSite.secretName, namespace: namespace) { commands.append(command) }
            fleetSites.append(fleetSite)
        }
        commands.append(cluster.serveTokenCommand(namespace: namespace))
        let fleet = KubernetesFleet(
            sites: fleetSites, image: image, namespace: namespace, configFiles: try cluster.configFiles(), volumeSize: volumeSize,
            storageClass: storageClass, servePort: config.serve.port, secretCommands: commands, source: configPath)
        return KubernetesManifests.render(fleet)
    }

    /// A DNS-1123 label: lower-case letters, digits and `-`, at most 63, letters or digits at the ends.
    static func isLabel(_ text: String) -> Bool {
        text.range(of: "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", options: .regularExpression) != nil
    }
}
