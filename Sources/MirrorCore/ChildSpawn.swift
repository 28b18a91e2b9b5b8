#if canImport(Glibc)
import Glibc
#endif

/// Starts a child process with `posix_spawn`, clean of what the parent set up: every signal at
/// its default action and none blocked (the parent's signal forwarder blocks and handles
/// SIGINT and SIGTERM; a child that inherited that would ignore `systemctl stop`), standard
/// input from `/dev/null`, and the descriptors `files` adds.
public enum ChildSpawn {
    /// Why the child could not be started: the errno (`ENOENT` for a missing executable).
    public struct Failure: Error, Sendable, Equatable {
        public let code: Int32
    }

    /// - Parameters:
    ///   - program: the executable's path.
    ///   - argv: the whole argument vector, `argv[0]` included.
    ///   - environment: `NAME=value` strings, the child's whole environment.
    ///   - newProcessGroup: the child leads a process group of its own (so that the group can
    ///     be killed as one).
    ///   - files: more file actions (descriptors the child gets).
    /// - Returns: the child's pid.
    public static func spawn(
        _ program: String, argv: [String], environment: [String], newProcessGroup: Bool = false,
        files: (inout posix_spawn_file_actions_t) -> Void = { _ in }
    ) -> Result<pid_t, Failure> {
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { return .failure(Failure(code: ENOMEM)) }
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { return .failure(Failure(code: ENOMEM)) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        files(&actions)

        let argvPointers = argv.map { strdup($0) }
        let envPointers = environment.map { strdup($0) }
        defer {
            for pointer in argvPointers { free(pointer) }
            for pointer in envPointers { free(pointer) }
        }
        var pid: pid_t = 0
        let result = (argvPointers + [nil]).withUnsafeBufferPointer { argvBuffer -> Int32 in
            (envPointers + [nil]).withUnsafeBufferPointer { envBuffer -> Int32 in
                guard let argvBase = argvBuffer.baseAddress, let envBase = envBuffer.baseAddress else { return EINVAL }
                return posix_spawn(&pid, program, &actions, &attributes, argvBase, envBase)
            }
        }
        return result == 0 ? .success(pid) : .failure(Failure(code: result))
    }
}
