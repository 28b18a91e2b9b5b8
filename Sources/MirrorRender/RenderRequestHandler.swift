/// A request the browser made while rendering a page, paused before it left the browser.
///
/// The render layer never fetches: it hands every request to a ``RenderRequestHandler`` and
/// gives the browser the answer. The browser cannot reach the network by itself
/// (``BrowserLaunch``), so a request the handler refuses fails in the page.
public struct InterceptedRequest: Sendable, Equatable {
    /// The URL, fragment removed (the browser keeps fragments to itself).
    public var url: String
    /// `GET`, `POST`, … as the page sent it.
    public var method: String
    /// The headers the browser would have sent, in its order.
    public var headers: [HeaderField]
    /// The body of a POST (or other method with a body); nil when there is none.
    public var body: [UInt8]?
    /// What the browser loads it as: `Document`, `Stylesheet`, `Image`, `Media`, `Font`,
    /// `Script`, `XHR`, `Fetch`, `EventSource`, `WebSocket`, `Manifest`, `Ping`, `Other`, …
    public var resourceType: String
    /// True for the document of the page being rendered (answer it with the page itself).
    public var isPageDocument: Bool
    /// True for a document of a frame inside the page.
    public var isFrameDocument: Bool
    /// The most body bytes the page may still receive (its byte budget); a handler should not
    /// fetch more than this.
    public var maximumBodyBytes: Int64

    /// A request as the render layer hands it out (tests build their own).
    public init(url: String, method: String, headers: [HeaderField], body: [UInt8]?, resourceType: String,
                isPageDocument: Bool, isFrameDocument: Bool = false, maximumBodyBytes: Int64) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.resourceType = resourceType
        self.isPageDocument = isPageDocument
        self.isFrameDocument = isFrameDocument
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// The first value of header `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// One HTTP header field.
public struct HeaderField: Sendable, Equatable {
    /// The field name as sent (compare it without case).
    public var name: String
    /// The field value.
    public var value: String
    /// A field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// How a ``RenderRequestHandler`` answers an ``InterceptedRequest``.
public enum InterceptedAnswer: Sendable, Equatable {
    /// Give the browser this response (a redirect status with `Location` makes the browser
    /// ask again for the target, which is paused in turn).
    case fulfil(status: Int, headers: [HeaderField], body: [UInt8])
    /// Make the request fail in the page.
    case fail(FailureReason)

    /// Why a request fails in the page (the DevTools protocol's `Network.ErrorReason`).
    public enum FailureReason: String, Sendable, Equatable {
        /// Refused by policy (out of scope, robots.txt, a method that is never sent).
        case blockedByClient = "BlockedByClient"
        /// The origin could not be reached, or answered with an error the page never sees.
        case failed = "Failed"
        /// The origin did not answer in time.
        case timedOut = "TimedOut"
        /// The origin refused the client certificate.
        case accessDenied = "AccessDenied"
        /// The page no longer needs it (it is done, or it navigated away).
        case aborted = "Aborted"
    }
}

/// Answers the requests of pages being rendered. The crawler implements it with its own
/// HTTP engine, scope, identity scope, trust policy, cookies and robots.txt rules.
///
/// `answer` is called on Swift's cooperative pool, concurrently for the requests of one page
/// and of different pages; it must not block a thread (await the network instead).
public protocol RenderRequestHandler: Sendable {
    /// The response for one paused request.
    func answer(_ request: InterceptedRequest) async -> InterceptedAnswer
}
