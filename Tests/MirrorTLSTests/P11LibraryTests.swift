import CMirrorShims
import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorTLS

/// libp11 is opened at run time (dlopen) by a token identity's first use instead of linked
/// (issue #27). The token identities themselves are tested end to end against SoftHSM2
/// (TokenIdentityTests).
@Suite("libp11, opened at run time")
struct P11LibraryTests {
    @Test("the test binary, built like the tool, does not link libp11")
    func notLinked() throws {
        let needed = try RuntimeLibraries.neededByThisBinary()
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libp11") }, "\(needed)")
    }

    @Test("a token's module is loaded through the opened library, which is then mapped; a module that is not there fails with its path")
    func opens() throws {
        let missing = "/nonexistent/pkcs11-module.so"
        do {
            _ = try PKCS11Context(modulePath: missing)
            Issue.record("a missing module loaded")
        } catch {
            guard case .moduleLoadFailed(let path, let detail) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == missing)
            #expect(!detail.contains("libp11 ("), "libp11 itself opened: \(detail)")
        }
        #expect(P11Library.unavailableReason == nil)
        #expect(CMirrorShims_p11_load_error() == nil)
        #expect(String(cString: CMirrorShims_p11_library_name()) == "libp11.so.3")
        #expect(try RuntimeLibraries.processMaps().contains("/libp11.so.3"), "libp11.so.3 is not mapped")
    }

    @Test("the functions the table looks up are the library's; a missing one is named in the error")
    func lookups() {
        let names = ["PKCS11_CTX_new", "PKCS11_CTX_load", "PKCS11_CTX_unload", "PKCS11_CTX_free", "PKCS11_enumerate_slots",
                     "PKCS11_release_all_slots", "PKCS11_get_slotid_from_slot", "PKCS11_login", "PKCS11_enumerate_keys",
                     "PKCS11_enumerate_certs", "PKCS11_get_private_key", "ERR_get_CKR_code"]
        let found = RuntimeLibraries.open("libp11.so.3", symbols: names)
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
        let lacking = RuntimeLibraries.open("libp11.so.3", symbols: names + ["PKCS11_no_such_function"])
        #expect(lacking.status == -1)
        #expect(lacking.error == "libp11.so.3 has no PKCS11_no_such_function", "\(lacking.error)")
    }
}
