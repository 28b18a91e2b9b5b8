import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child process with clean signal state, and waits for it off the
/// cooperative pool.
///
/// Foundation's `Process` hands ignored signals down to the child (exec keeps `SIG_IGN`), and
/// `schedule` ignores SIGINT/SIGTERM to receive them through a dispatch source; a refresh child
/// would then ignore the SIGTERM of `systemctl stop`. `posix_spawn` with `POSIX_SPAWN_SETSIGDEF`
/// and `POSIX_SPAWN_SETSIGMASK` gives the child default dispositions and an empty mask.
enum ChildProcess {
    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// `posix_spawn` failed with this errno (e.g. `ENOENT` for a missing executable).
        case couldNotStart(Int32)
    }

    /// Spawns `executable` with `arguments` (not including argv[0]), standard input from
    /// `/dev/null`, standard output and error inherited, and the current environment.
    /// - Returns: how it ended. The wait runs on its own thread.
    static func run(executable: String, arguments: [String]) async -> Termination {
        let spawned = spawn(executable: executable, arguments: arguments)
        guard case .success(let pid) = spawned else {
            if case .failure(let failure) = spawned { return .couldNotStart(failure.code) }
            return .couldNotStart(EINVAL)
        }
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 {
                    if errno != EINTR {
                        continuation.resume(returning: .couldNotStart(errno))
                        return
                    }
                }
                // WIFEXITED / WEXITSTATUS / WTERMSIG are macros; the encoding is Linux's.
                let signal = status & 0x7F
                continuation.resume(returning: signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal))
            }
            thread.name = "mtls-mirror.child-wait"
            thread.start()
        }
    }

    private static func spawn(executable: String, arguments: [String]) -> Result<pid_t, ChildSpawn.Failure> {
        ChildSpawn.spawn(executable, argv: [executable] + arguments,
                         environment: ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" })
    }
}
