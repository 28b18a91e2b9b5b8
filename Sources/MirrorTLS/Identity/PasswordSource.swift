import Foundation
import MirrorCore

/// Where the password of a client identity comes from.
///
/// Passwords never come from the command line itself (they would show in `ps` and shell
/// history): an environment variable, a file, or a prompt on the terminal with echo off.
public enum PasswordSource: Sendable, Equatable {
    /// The value of an environment variable.
    case environment(String)
    /// The first line of a file (a trailing newline is removed).
    case file(String)
    /// Ask on the controlling terminal (`/dev/tty`) with echo off.
    case prompt
    /// A password already in hand (tests, config-provided secrets).
    case literal(Secret)

    /// Produces the password.
    ///
    /// - Parameter file: the identity file the password is for; named in errors and the prompt.
    /// - Returns: the password.
    /// - Throws: ``IdentityError/passwordVariableMissing(variable:file:)`` when the variable is unset or
    ///   empty, ``IdentityError/passwordFileUnreadable(path:file:)`` when the file cannot be read,
    ///   ``IdentityError/noTerminalForPrompt(file:)`` when there is no terminal to ask on.
    public func resolve(forFile file: String) throws(IdentityError) -> Secret {
        switch self {
        case let .environment(variable):
            guard let value = Environment.value(variable), !value.isEmpty else {
                throw .passwordVariableMissing(variable: variable, file: file)
            }
            return Secret(value)
        case let .file(path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .passwordFileUnreadable(path: path, file: file)
            }
            let text = String(decoding: data, as: UTF8.self)
            let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            return Secret(firstLine)
        case .prompt:
            return try TerminalPrompt.readSecret(prompt: "Password for \(file): ", file: file)
        case let .literal(secret):
            return secret
        }
    }
}
