import MirrorTLS

/// Where a secret comes from. The config names the place, never the secret itself.
///
/// Used for the identity's password and for header values that carry credentials.
public enum PasswordReference: Sendable, Equatable {
    /// The value of the environment variable with this name: `{"env": "VAR"}`.
    case environment(String)
    /// The first line of this file (an absolute path after loading): `{"file": "path"}`.
    case file(String)
    /// Ask on the terminal when the secret is needed: `"prompt"`.
    case prompt

    /// The TLS layer's equivalent, which knows how to produce the secret.
    public var source: PasswordSource {
        switch self {
        case .environment(let variable): return .environment(variable)
        case .file(let path): return .file(path)
        case .prompt: return .prompt
        }
    }
}
