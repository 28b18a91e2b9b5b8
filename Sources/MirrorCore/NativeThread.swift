import CMirrorShims
#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread, for the threads a run starts before its first request (issue #27).
///
/// Foundation's `Thread` sets up its own object for the new thread before the body runs: the
/// process's first one started its body 180–280 µs after `start()`, a `pthread` 70–85 µs
/// (a static Swift program on this project's VM, five runs each), and `start()` itself returned
/// 30–50 µs later. The identity's read and the engine's reserved thread are started on the way to
/// the first request; later threads may use either.
public enum NativeThread {
    /// Starts `body` on a new detached thread named `name` (its first 15 bytes: Linux keeps no
    /// more, and refuses a longer name instead of cutting it).
    ///
    /// - Parameters:
    ///   - name: the thread's name, for `top -H` and debuggers.
    ///   - stackSize: its stack, in bytes (nil: glibc's default, 8 MiB of address space).
    ///   - body: what it runs; the thread ends when it returns.
    /// - Returns: false when the system made no thread (`pthread_create` failed; `body` is dropped).
    @discardableResult
    public static func detach(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { _ = pthread_attr_setstacksize(&attributes, stackSize) }
        _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let start = Unmanaged.passRetained(Start(name: Self.kernelName(name), body: body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            _ = CMirrorShims_set_thread_name(start.name)
            start.body()
            return nil
        }, start)
        if created != 0 {
            Unmanaged<Start>.fromOpaque(start).release()
            return false
        }
        return true
    }

    /// `name` cut to 15 bytes, at a character boundary.
    public static func kernelName(_ name: String) -> String {
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= 15 else { break }
            cut.append(character)
        }
        return cut
    }

    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
