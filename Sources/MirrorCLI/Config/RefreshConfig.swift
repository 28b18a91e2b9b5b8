/// How `refresh` and `schedule` keep a site's mirror current.
public struct RefreshConfig: Sendable, Equatable {
    /// Seconds between scheduled refreshes; `nil` means the site is refreshed only on demand.
    public var every: Double?
    /// A random delay of up to this many seconds added to each scheduled run. Default 0.
    public var jitter = 0.0
    /// Snapshots retained (≥ 1). Default 5.
    public var keep = 5
    /// Warn when the client certificate expires within this many days. Default 30.
    public var expiryWarningDays = 30

    /// The defaults listed on each property.
    public init() {}
}
