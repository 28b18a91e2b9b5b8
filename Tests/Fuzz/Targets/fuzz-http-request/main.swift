// libFuzzer executable of the `http-request` fuzz target (see scripts/fuzz.sh). Built only with
// MTLS_MIRROR_FUZZ=1 and `-sanitize=fuzzer`; libFuzzer parses the command line.
import CFuzzerDriver
import Foundation
import MirrorFuzzing

/// The entry point libFuzzer's archive refers to (its own `main`, unused here, needs it).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.httpRequest.fuzzOne(data, size)
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(CFuzzerDriver_run(&argc, &argv) { data, size in FuzzTarget.httpRequest.fuzzOne(data, size) })
