import Foundation
import MirrorScheduler

extension ScheduleCommand {
    /// `--print-systemd --template`: the units the Debian package installs
    /// (`mtls-mirror-refresh@.service`, `.timer`, `mtls-mirror-serve.service`), each after a
    /// `# ---- NAME ----` line; with `--config`, also a timer drop-in per site that has
    /// `refresh.every`. `--executable` and `--config` set the paths the units name.
    /// - Throws: ``UsageError`` for options that do not apply to the packaged units;
    ///   ``ConfigError`` when `--config` names a config that cannot be read.
    func templateText() throws -> String {
        guard arguments.flag("print-systemd") else {
            throw UsageError("--template applies to --print-systemd", hint: "mtls-mirror schedule --print-systemd --template")
        }
        for option in ["user", "credential", "environment-file", "output", "site"] where !arguments.all(option).isEmpty {
            throw UsageError("--\(option) does not apply to --template: the packaged units run as a dynamic user over /var/lib/mtls-mirror with LoadCredential=",
                             hint: "drop --\(option); see README, \"Install the Debian package\"")
        }
        var layout = UnitFiles.PackageLayout()
        if let executable = arguments.value("executable") { layout.executable = SiteFolders.absolute(executable) }
        if let config = arguments.value("config") { layout.configPath = SiteFolders.absolute(config) }
        let refresh = UnitFiles.refreshTemplate(layout: layout)
        var text = "# ---- \(UnitFiles.templateName()).service ----\n" + refresh.service
            + "\n# ---- \(UnitFiles.templateName()).timer ----\n" + refresh.timer
            + "\n# ---- \(UnitFiles.serveUnitName).service ----\n" + UnitFiles.serveService(layout: layout)
        if arguments.value("config") != nil {
            let config = try ConfigRunner(arguments: arguments, logger: logger).loadConfig()
            for site in config.sites {
                guard let every = site.refresh.every else {
                    logger.info("\(site.name): no refresh.every, so no drop-in (its timer keeps the template's 6h)")
                    continue
                }
                let unit = UnitFiles.templateName(site: site.name) + ".timer"
                text += "\n# ---- \(unit).d/schedule.conf ----\n"
                    + UnitFiles.timerDropIn(site: site.name, schedule: RefreshSchedule(every: every, jitter: site.refresh.jitter))
            }
        }
        return text
    }
}
