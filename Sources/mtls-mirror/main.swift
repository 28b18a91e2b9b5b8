import Foundation
import MirrorCLI
import MirrorCore

// OpenSSL must not clean up at exit while pool threads may still release TLS objects.
OpenSSLProcess.initialiseWithoutExitCleanup()
// Large document buffers are unmapped when freed, not kept in an arena (issue #27).
AllocatorPolicy.mapLargeBlocksAlone()
// The tool is a thin shell: everything lives in the MirrorCLI library.
let code = await runCommandLine(Array(CommandLine.arguments.dropFirst()))
exit(code)
