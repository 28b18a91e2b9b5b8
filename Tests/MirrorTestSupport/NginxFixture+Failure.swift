import Foundation
import MirrorCore

extension NginxFixture {
    /// Why the fixture could not start.
    public enum Failure: DiagnosableError {
        /// No nginx executable was found in any of `searched`.
        case nginxNotFound(searched: [String])
        /// The prefix directory or configuration could not be written.
        case setupFailed(path: String, reason: String)
        /// `Process.run()` failed for `executable`.
        case launchFailed(executable: String, reason: String)
        /// nginx exited during startup with `exitStatus`; `errorLog` holds its complaint.
        case exitedDuringStartup(exitStatus: Int32, ports: [UInt16], errorLog: String)
        /// Not every port accepted TCP within `seconds`; nginx was killed.
        case notListening(seconds: TimeInterval, ports: [UInt16], errorLog: String)

        public var category: ErrorCategory { .internal }
        public var summary: String {
            switch self {
            case .nginxNotFound(let searched):
                "nginx not found (searched \(searched.joined(separator: ", ")))"
            case .setupFailed(let path, let reason):
                "could not prepare nginx files at \(path): \(reason)"
            case .launchFailed(let executable, let reason):
                "could not launch \(executable): \(reason)"
            case .exitedDuringStartup(let status, let ports, let errorLog):
                "nginx exited with status \(status) while starting on ports \(ports): \(errorLog)"
            case .notListening(let seconds, let ports, let errorLog):
                "nginx did not accept connections on ports \(ports) within \(seconds) s: \(errorLog)"
            }
        }
        public var hint: String {
            switch self {
            case .nginxNotFound: "run scripts/install-deps.sh, or set MTLS_MIRROR_NGINX to nginx's path"
            case .setupFailed: "check free space and permissions of the temporary directory"
            case .launchFailed: "check that nginx is executable"
            case .exitedDuringStartup, .notListening: "read nginx's error log quoted above"
            }
        }

        /// Whether the failure was a port taken by someone else between allocation and bind.
        var isAddressInUse: Bool {
            switch self {
            case .exitedDuringStartup(_, _, let log), .notListening(_, _, let log):
                log.contains("Address already in use")
            default:
                false
            }
        }
    }
}
