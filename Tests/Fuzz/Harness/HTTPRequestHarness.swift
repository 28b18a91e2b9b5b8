import MirrorServer

/// Fuzz target `http-request`: the server's request parser state machine and request-path
/// confinement.
///
/// Input: raw bytes from a client. Invariants:
/// - feeding the bytes in pieces (split points derived from the input) gives the same requests
///   as feeding them at once, and a failure in one way is a failure in the other (the reported
///   reason may differ only between a size limit and what lies beyond it);
/// - every request respects the limits (request line length, header count, header section);
/// - the parser never waits on more buffered bytes than the limits allow: after the input,
///   a stream without line ends makes it fail or finish within the limits' total;
/// - every request path, and the input's first line taken as a raw path, is either refused
///   or confined (``RequestPathChecks``).
public enum HTTPRequestHarness {
    static let name = "http-request"
    /// Small limits, so that inputs reach them.
    static let smallLimits = HTTPParserLimits(requestLineLength: 96, headerSectionSize: 256, headerCount: 6, discardableBodySize: 48)

    /// What a parser produced from some bytes.
    struct Outcome: Equatable {
        var requests: [HTTPRequestHead] = []
        var failure: HTTPParseError?
        var finished = false
    }

    /// Runs the target on one input.
    /// - Parameter data: the fuzz input.
    /// - Returns: the first broken invariant, or nil.
    public static func run(_ data: [UInt8]) -> FuzzViolation? {
        let firstLine = data.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: " ") }
        if let violation = RequestPathChecks.check(String(decoding: firstLine, as: UTF8.self)) { return violation }
        for limits in [smallLimits, HTTPParserLimits()] {
            var whole = HTTPRequestParser(limits: limits)
            let once = feed(&whole, [data[...]])
            var random = SplitMix(seed: FuzzInput.hash(data))
            var pieces: [ArraySlice<UInt8>] = []
            var start = 0
            while start < data.count {
                let end = min(data.count, start + random.next(upTo: random.next() % 4 == 0 ? 1 : 40))
                pieces.append(data[start..<end])
                start = end
            }
            var chunkedParser = HTTPRequestParser(limits: limits)
            let chunked = feed(&chunkedParser, pieces)
            if let violation = compare(once, chunked, limits: limits) { return violation }
            for request in once.requests {
                if let violation = checkLimits(request, limits: limits) { return violation }
                if let violation = RequestPathChecks.check(request.path) { return violation }
            }
            if limits == smallLimits, let violation = checkBounded(&whole, limits: limits) { return violation }
        }
        return nil
    }

    static func feed(_ parser: inout HTTPRequestParser, _ pieces: [ArraySlice<UInt8>]) -> Outcome {
        var outcome = Outcome()
        for piece in pieces {
            parser.feed(piece)
            while let event = parser.next() {
                switch event {
                case .request(let head): outcome.requests.append(head)
                case .failure(let error): outcome.failure = error
                }
            }
        }
        outcome.finished = parser.isFinished
        return outcome
    }

    /// Same requests, and the same end state; a different failure reason is allowed only when
    /// one of the two is a size limit (a piecewise feed can hit the limit before it sees the
    /// line end that the whole feed judged first).
    static func compare(_ once: Outcome, _ chunked: Outcome, limits: HTTPParserLimits) -> FuzzViolation? {
        guard once.requests == chunked.requests, once.finished == chunked.finished,
              (once.failure == nil) == (chunked.failure == nil) else {
            return FuzzViolation(target: name, invariant: "feeding in pieces gives the same requests as feeding at once",
                                 evidence: "at once \(summary(once)); in pieces \(summary(chunked)); limits \(limits)")
        }
        if let a = once.failure, let b = chunked.failure, a != b, !isSizeLimit(a), !isSizeLimit(b) {
            return FuzzViolation(target: name, invariant: "feeding in pieces fails for the same reason as feeding at once",
                                 evidence: "\(a) versus \(b)")
        }
        return nil
    }

    static func isSizeLimit(_ error: HTTPParseError) -> Bool {
        switch error {
        case .requestLineTooLong, .headerSectionTooLarge: true
        default: false
        }
    }

    static func summary(_ outcome: Outcome) -> String {
        "\(outcome.requests.map(\.requestLine)) failure \(outcome.failure.map { "\($0)" } ?? "none") finished \(outcome.finished)"
    }

    /// A parsed request stays within the limits.
    /// - Parameters:
    ///   - request: a request the parser produced.
    ///   - limits: the limits it was given.
    /// - Returns: the broken promise, or nil.
    public static func checkLimits(_ request: HTTPRequestHead, limits: HTTPParserLimits) -> FuzzViolation? {
        let lineLength = request.method.utf8.count + request.target.utf8.count + 10
        // Values are decoded leniently (an invalid byte becomes one U+FFFD), so count scalars:
        // never more than the bytes received.
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.unicodeScalars.count + 3 } + 2
        guard lineLength <= limits.requestLineLength, request.headers.count <= limits.headerCount,
              headerBytes <= limits.headerSectionSize else {
            return FuzzViolation(target: name, invariant: "a request respects the parser's limits",
                                 evidence: "line \(lineLength), \(request.headers.count) fields, \(headerBytes) header bytes; limits \(limits)")
        }
        guard !request.method.isEmpty, !request.path.isEmpty,
              !request.target.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            return FuzzViolation(target: name, invariant: "a request has a method and a visible-ASCII target",
                                 evidence: Evidence.text(request.requestLine))
        }
        return nil
    }

    /// After the input, bytes without a line end must make the parser fail or finish before
    /// more than the limits' total is buffered.
    static func checkBounded(_ parser: inout HTTPRequestParser, limits: HTTPParserLimits) -> FuzzViolation? {
        let budget = limits.requestLineLength + limits.headerSectionSize + limits.discardableBodySize + 4
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
        var fed = 0
        while fed <= budget + chunk.count {
            if parser.isFinished { return nil }
            parser.feed(chunk)
            fed += chunk.count
            while let event = parser.next() {
                if case .failure = event { return nil }
            }
        }
        return parser.isFinished ? nil : FuzzViolation(
            target: name, invariant: "the parser never buffers more than its limits allow",
            evidence: "\(fed) bytes without a line end were accepted; limits \(limits)")
    }
}
