import Foundation
import MirrorCLI

// The tool is a thin shell: everything lives in the MirrorCLI library.
let code = await runCommandLine(Array(CommandLine.arguments.dropFirst()))
exit(code)
