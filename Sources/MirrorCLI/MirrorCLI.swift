import MirrorCore

/// Runs the command line and returns the process exit code.
public func runCommandLine(_ arguments: [String]) async -> Int32 {
    0
}
