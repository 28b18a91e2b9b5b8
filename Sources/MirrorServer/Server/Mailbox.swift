import Foundation
import CMirrorShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages handed to the event loop from other threads, with the eventfd that wakes it.
///
/// Owns the eventfd and closes it in `deinit`, so a late poster (a finishing miss Task) can
/// never write into a descriptor number that has been reused.
final class Mailbox: @unchecked Sendable {
    enum Message {
        case stop
        case missCompleted(connection: UInt64, result: MissResult, request: HTTPRequestHead, site: String, path: String)
    }

    let wakeDescriptor: Int32
    private let lock = NSLock()
    private var messages: [Message] = []

    init?() {
        let fd = CMirrorShims_eventfd(0, CMirrorShims_EFD_NONBLOCK() | CMirrorShims_EFD_CLOEXEC())
        guard fd >= 0 else { return nil }
        wakeDescriptor = fd
    }

    deinit { _ = close(wakeDescriptor) }

    /// Queues a message and wakes the loop.
    func post(_ message: Message) {
        lock.withLock { messages.append(message) }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Takes every queued message (and resets the eventfd counter).
    func drain() -> [Message] {
        var counter: UInt64 = 0
        _ = read(wakeDescriptor, &counter, 8)
        return lock.withLock {
            let taken = messages
            messages.removeAll()
            return taken
        }
    }
}

/// Monotonic nanoseconds.
func monotonicNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

extension Double {
    /// Seconds as nanoseconds.
    var nanoseconds: UInt64 { self <= 0 ? 0 : UInt64(self * 1_000_000_000) }
}
