import Foundation
import MirrorScheduler
#if canImport(Glibc)
import Glibc
#endif

extension ScheduleCommand {
    /// `--print-systemd`: a service and a timer per selected site with `refresh.every`.
    /// - Throws: ``UnitFileError/noInterval(site:)`` for a site selected by `--site` without an
    ///   interval; ``UsageError`` for `--credential` with `--environment-file`.
    func systemdText(sites: [SiteConfig], configPath: String, outputRoot: String) throws -> String {
        let secret: UnitFiles.SystemdSecret
        switch (arguments.value("credential"), arguments.value("environment-file")) {
        case (let credential?, nil): secret = .credential(sourcePath: SiteFolders.absolute(credential))
        case (nil, let file?): secret = .environmentFile(path: SiteFolders.absolute(file))
        case (nil, nil): secret = .none
        case (_?, _?): throw UsageError("--credential and --environment-file exclude each other", hint: "give one way to pass the password")
        }
        var text = ""
        for site in try scheduledSites(sites) {
            if case .prompt = site.identity?.password {
                logger.warning("\(site.name): the password is \"prompt\", which cannot work unattended; use {\"file\": …} or {\"env\": …}")
            }
            let units = UnitFiles.systemd(
                executable: arguments.value("executable").map(SiteFolders.absolute) ?? RefreshRunner.currentExecutable,
                configPath: configPath, workingDirectory: FileManager.default.currentDirectoryPath,
                user: arguments.value("user") ?? Self.currentUser, site: site.name, outputDirectory: outputRoot,
                schedule: RefreshSchedule(every: site.refresh.every ?? 0, jitter: site.refresh.jitter), secret: secret)
            let name = UnitFiles.unitName(site: site.name)
            text += "# ---- \(name).service ----\n" + units.service + "\n# ---- \(name).timer ----\n" + units.timer + "\n"
        }
        return text
    }

    /// `--print-cron`: one crontab line per selected site with `refresh.every`.
    /// - Throws: ``UnitFileError`` when an interval cannot be written for cron.
    func cronText(sites: [SiteConfig], configPath: String) throws -> String {
        let chosen = try scheduledSites(sites)
        return try UnitFiles.cron(
            executable: arguments.value("executable").map(SiteFolders.absolute) ?? RefreshRunner.currentExecutable,
            configPath: configPath, workingDirectory: FileManager.default.currentDirectoryPath,
            sites: chosen.map { ($0.name, $0.refresh.every ?? 0) })
    }

    /// The sites to print units for: those with an interval. A site named with `--site` that
    /// has none is an error; without `--site` such sites are skipped with a note.
    func scheduledSites(_ sites: [SiteConfig]) throws -> [SiteConfig] {
        var chosen: [SiteConfig] = []
        for site in sites {
            if site.refresh.every != nil {
                chosen.append(site)
            } else if arguments.all("site").contains(site.name) {
                throw UnitFileError.noInterval(site: site.name)
            } else {
                logger.info("\(site.name): no refresh.every, left out")
            }
        }
        guard !chosen.isEmpty else {
            throw UsageError("no site has refresh.every, so there is nothing to schedule", hint: "set sites[].refresh.every in the config (e.g. \"6h\")")
        }
        return chosen
    }

    /// The effective user's login name, or its uid.
    static var currentUser: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return String(geteuid())
    }
}
