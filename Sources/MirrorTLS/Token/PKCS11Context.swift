import CLibP11
import CMirrorShims
import COpenSSL
import Foundation

/// Owns one libp11 context: a loaded PKCS#11 module and the slot list enumerated from it.
///
/// A key taken from a token keeps working only while its module is loaded and its slot list
/// exists, so every ``PrivateKey`` made from a token retains the context that produced it
/// (``PrivateKey/owner``); the context unloads the module in `deinit`, after the last key is gone.
/// libp11 serialises its own sessions, so the keys may be used from several threads.
final class PKCS11Context: @unchecked Sendable {
    /// The `PKCS11_CTX *`.
    let pointer: UnsafeMutablePointer<PKCS11_CTX>
    /// The module file that was loaded.
    let modulePath: String
    /// The slots, as enumerated by ``enumerateSlots()``; nil before.
    private(set) var slots: UnsafeMutablePointer<PKCS11_SLOT>?
    private(set) var slotCount: UInt32 = 0

    /// Loads a PKCS#11 module (`PKCS11_CTX_load`, which calls its `C_Initialize`).
    ///
    /// - Parameter modulePath: the module's shared object, which must exist.
    /// - Throws: ``TokenError/moduleLoadFailed(path:detail:)`` (also when libp11 itself cannot
    ///   be opened: the detail names it and the package to install).
    init(modulePath: String) throws(TokenError) {
        if let reason = P11Library.unavailableReason { throw .moduleLoadFailed(path: modulePath, detail: reason) }
        guard let context = CMirrorShims_PKCS11_CTX_new() else {
            throw .moduleLoadFailed(path: modulePath, detail: "PKCS11_CTX_new failed")
        }
        // Loaded before the properties are set: a throw after that would run `deinit`, which
        // unloads and frees the context a second time (a module that fails its `C_Initialize`
        // crashed the process that way).
        guard CMirrorShims_PKCS11_CTX_load(context, modulePath) == 0 else {
            let detail = OpenSSLErrorQueue.drainedText(fallback: "the module did not initialise")
            CMirrorShims_PKCS11_CTX_free(context)
            throw .moduleLoadFailed(path: modulePath, detail: detail)
        }
        pointer = context
        self.modulePath = modulePath
    }

    deinit {
        if let slots { CMirrorShims_PKCS11_release_all_slots(pointer, slots, slotCount) }
        CMirrorShims_PKCS11_CTX_unload(pointer)
        CMirrorShims_PKCS11_CTX_free(pointer)
    }

    /// Enumerates the slots again (token flags, such as the PIN counters, are read afresh).
    ///
    /// The previous slot list, and every key or certificate pointer taken from it, is released.
    /// - Throws: ``TokenError/pkcs11(operation:detail:)``.
    func enumerateSlots() throws(TokenError) {
        if let slots { CMirrorShims_PKCS11_release_all_slots(pointer, slots, slotCount) }
        slots = nil
        slotCount = 0
        var list: UnsafeMutablePointer<PKCS11_SLOT>?
        var count: UInt32 = 0
        guard CMirrorShims_PKCS11_enumerate_slots(pointer, &list, &count) == 0 else {
            throw .pkcs11(operation: "PKCS11_enumerate_slots", detail: OpenSSLErrorQueue.drainedText())
        }
        slots = list
        slotCount = count
    }

    /// The slots that hold an initialised token.
    var tokenSlots: [UnsafeMutablePointer<PKCS11_SLOT>] {
        guard let slots else { return [] }
        return (0..<Int(slotCount)).map { slots + $0 }.filter { slot in
            guard let token = slot.pointee.token else { return false }
            return token.pointee.initialized != 0
        }
    }

    /// The PKCS#11 return code (`CKR_*`) libp11 queued for its last failure, if any.
    ///
    /// libp11 reports a module's `CK_RV` through OpenSSL's error queue, under an error library
    /// of its own (`ERR_get_CKR_code()`), with the `CK_RV` as the reason. The queue is drained.
    static func drainReturnValue() -> (code: UInt?, text: String) {
        let library = CMirrorShims_ERR_get_CKR_code()
        let entries = OpenSSLErrorQueue.drain()
        let code = entries.last(where: { Int32(ERR_GET_LIB($0.code)) == library }).map { UInt($0.reason) }
        return (code, OpenSSLErrorQueue.describe(entries))
    }
}

/// The PKCS#11 return values mtls-mirror tells apart (PKCS#11 v2.40 §3.6, `CK_RV`).
enum PKCS11ReturnValue {
    static let pinIncorrect: UInt = 0xA0
    static let pinInvalid: UInt = 0xA1
    static let pinLenRange: UInt = 0xA2
    static let pinExpired: UInt = 0xA3
    static let pinLocked: UInt = 0xA4
    static let tokenNotPresent: UInt = 0xE0
    static let deviceRemoved: UInt = 0x32
}
