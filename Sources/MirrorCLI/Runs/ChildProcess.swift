import Foundation
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

    private struct SpawnFailure: Error { let code: Int32 }

    private static func spawn(executable: String, arguments: [String]) -> Result<pid_t, SpawnFailure> {
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { return .failure(SpawnFailure(code: ENOMEM)) }
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { return .failure(SpawnFailure(code: ENOMEM)) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer -> Int32 in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer -> Int32 in
                guard let argvBase = argvBuffer.baseAddress, let envpBase = envpBuffer.baseAddress else { return EINVAL }
                return posix_spawn(&pid, executable, &actions, &attributes, argvBase, envpBase)
            }
        }
        return result == 0 ? .success(pid) : .failure(SpawnFailure(code: result))
    }
}
