// TEMPORARY contract stub (replaced by the real scope/robots/frontier/links on merge).
import Foundation
import MirrorCore
import MirrorDocument
public enum PathRule: Sendable, Equatable { case prefix(String); case regex(String)
  public static func parse(_ s: String) throws(ScopeError) -> PathRule { .prefix(s) } }
public struct ScopeError: DiagnosableError { public var category: ErrorCategory { .usage }; public var summary: String { "" }; public var hint: String { "" } }
public struct ScopeConfiguration: Sendable, Equatable { public var includes: [PathRule] = []; public var excludes: [PathRule] = []; public var noParent = false; public var maxDepth: Int? = nil; public var requisiteHosts: [String] = []; public init() {} }
public enum ScopeDecision: Sendable, Equatable { case page, requisite, outOfScope(reason: String), excluded(reason: String), tooDeep }
public struct CrawlScope: Sendable { public init(startURLs: [WebURL], configuration: ScopeConfiguration) throws(ScopeError) {}
  public func classify(_ url: WebURL, isRequisite: Bool, depth: Int) -> ScopeDecision { .page }
  public func isPrimaryOrigin(_ url: WebURL) -> Bool { true } }
public struct RobotsTxt: Sendable { public static func parse(_ bytes: [UInt8]) -> RobotsTxt { RobotsTxt() }; public static let allowAll = RobotsTxt()
  public func isAllowed(_ pathAndQuery: String, userAgent: String) -> Bool { true }; public func crawlDelay(userAgent: String) -> Double? { nil } }
public struct FrontierItem: Sendable, Equatable { public let url: WebURL; public let depth: Int; public let isRequisite: Bool; public let referrer: WebURL? }
public struct FrontierLimits: Sendable, Equatable { public var maxPages: Int? = nil; public var maxBytes: Int64? = nil; public init(maxPages: Int? = nil, maxBytes: Int64? = nil) {} }
public enum FinishReason: Sendable, Equatable { case exhausted, pageLimit, byteLimit, cancelled }
public enum FrontierAction: Sendable, Equatable { case fetch(FrontierItem); case wait; case finished(FinishReason) }
public struct DiscoveredLink: Sendable, Equatable { public let url: WebURL; public let isRequisite: Bool; public init(url: WebURL, isRequisite: Bool) { self.url = url; self.isRequisite = isRequisite } }
public enum DiscoveryResult: Sendable, Equatable { case queued(FrontierItem); case duplicate; case refused(ScopeDecision) }
public struct FrontierStats: Sendable { public var queued = 0, inFlight = 0, done = 0, failed = 0, seen = 0; public var bytes: Int64 = 0 }
public struct Frontier: Sendable { public init(scope: CrawlScope, limits: FrontierLimits) {}
  public mutating func seed(_ urls: [WebURL]) {}
  public mutating func discover(_ links: [DiscoveredLink], from parent: FrontierItem) -> [DiscoveryResult] { [] }
  public mutating func next() -> FrontierAction { .finished(.exhausted) }
  public mutating func complete(_ item: FrontierItem, bytes: Int64) {}
  public mutating func fail(_ item: FrontierItem) {}
  public mutating func redirected(_ item: FrontierItem, to final: WebURL) -> Bool { true }
  public mutating func cancel() {}
  public var stats: FrontierStats { FrontierStats() } }
public struct LinkPlan: Sendable { public var replacements: [Int: String]; public var external: [WebURL] }
public enum LinkPlanner { public static func plan(references: [Reference], documentPath: String, baseURL: WebURL, localPath: (WebURL) -> String?) -> LinkPlan { LinkPlan(replacements: [:], external: []) } }
