/// Accepts every server.
///
/// DANGEROUS: THIS TURNS OFF SERVER AUTHENTICATION. ANYONE ABLE TO INTERCEPT THE CONNECTION CAN
/// IMPERSONATE THE SERVER, READ EVERYTHING AND RECEIVE THE CLIENT CERTIFICATE'S SIGNATURES.
/// USE IT ONLY FOR LOCAL DEBUGGING, NEVER IN PRODUCTION OR IN A SAVED CONFIGURATION.
public struct DisabledTrustEvaluator: ServerTrustEvaluating {
    /// "disabled".
    public var name: String { "disabled" }

    /// Creates the policy. DANGEROUS: see the type's documentation.
    public init() {}

    /// Accepts anything.
    public func evaluate(_ trust: ServerTrust) throws(TrustError) {}
}
