import MirrorCore
import Testing

/// The one description of a library opened at run time that cannot be used.
@Suite struct RuntimeLibraryTests {
    static func text(_ value: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    @Test func aLibraryThatCannotBeOpenedIsNamedWithTheLoadersReasonAndThePackage() {
        let library = RuntimeLibrary(name: "Example", package: "libexample1", load: { -1 },
                                     loadError: { RuntimeLibraryTests.text("libexample.so.1: cannot open shared object file") },
                                     fileName: { RuntimeLibraryTests.text("libexample.so.1") })
        #expect(library.file == "libexample.so.1")
        #expect(library.unavailableReason
            == "Example (libexample.so.1) cannot be used: libexample.so.1: cannot open shared object file; install Debian's libexample1 package")
        let silent = RuntimeLibrary(name: "Example", package: "libexample1", load: { -1 }, loadError: { nil },
                                    fileName: { RuntimeLibraryTests.text("libexample.so.1") })
        #expect(silent.unavailableReason?.contains("unknown reason") == true)
    }

    @Test func anOpenLibraryHasNoReason() {
        let library = RuntimeLibrary(name: "Example", package: "libexample1", load: { 0 },
                                     loadError: { RuntimeLibraryTests.text("stale") }, fileName: { RuntimeLibraryTests.text("libexample.so.1") })
        #expect(library.unavailableReason == nil)
    }
}
