import Foundation
import MirrorCLI
import MirrorCore

// OpenSSL must not clean up at exit while pool threads may still release TLS objects.
OpenSSLProcess.initialiseWithoutExitCleanup()
// Large document buffers are unmapped when freed, not kept in an arena (issue #27).
AllocatorPolicy.mapLargeBlocksAlone()
// The tool is a thin shell: everything lives in the MirrorCLI library.
let code = await runCommandLine(Array(CommandLine.arguments.dropFirst()))
// Everything the command wrote is closed, and a snapshot synced, by now: only standard output
// may still hold buffered text. `exit` would then run the loaded libraries' destructors
// (libcurl's 30 libraries, libxml2's ICU), 0.3–0.4 ms of every run's end for memory the
// kernel frees anyway (issue #27).
fflush(nil)
_exit(code)
