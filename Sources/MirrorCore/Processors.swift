import CMirrorShims
#if canImport(Glibc)
import Glibc
#endif

/// How many processors this process may run on: the CPUs in its affinity mask, lowered to a
/// cgroup v2 CPU quota (`cpu.max`) when its container sets one.
///
/// What Foundation's `ProcessInfo.activeProcessorCount` accounts for on Linux, without its first
/// call's cost: building `ProcessInfo` and reading the cgroup files through `Data` look
/// up a dozen conformances in the runtime's tables, about 0.4 ms of every run, paid when the
/// first document waits to be parsed (issue #27).
public enum Processors {
    /// Computed once per process; at least 1.
    public static let active: Int = count(affinity: affinityCount(), quota: readCgroupQuota())

    /// The affinity mask's CPUs, lowered to the quota's whole processors (rounded up).
    static func count(affinity: Int, quota: String?) -> Int {
        var result = max(1, affinity)
        if let quota, let limit = processors(cpuMax: quota) { result = min(result, limit) }
        return result
    }

    /// Whole processors allowed by a cgroup v2 `cpu.max` line (`"<quota> <period>"`, or
    /// `"max <period>"` for none), rounded up; nil when there is no limit or the line is not
    /// understood.
    static func processors(cpuMax line: String) -> Int? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else {
            return nil
        }
        return max(1, (quota + period - 1) / period)
    }

    private static func affinityCount() -> Int {
        let count = Int(CMirrorShims_affinity_count())
        return count > 0 ? count : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    private static func readCgroupQuota() -> String? {
        let descriptor = open("/sys/fs/cgroup/cpu.max", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
