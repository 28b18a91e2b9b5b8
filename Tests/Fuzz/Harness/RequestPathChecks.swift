import MirrorServer

/// The confinement promise of ``RequestPath``, checked against a small independent model.
public enum RequestPathChecks {
    static let name = HTTPRequestHarness.name

    /// Checks `raw` through ``RequestPath/parse(_:)``: an accepted path has no empty, `.`
    /// or `..` segment and no `/`, `\`, NUL or control character in a segment, so that joined
    /// under any root it stays there; it equals the model's result; its re-encoded form
    /// parses back to it; and a refused path is refused by the model too.
    /// - Parameter raw: a raw request path.
    /// - Returns: the first broken promise, or nil.
    public static func check(_ raw: String) -> FuzzViolation? {
        let parsed = RequestPath.parse(raw)
        let model = modelSegments(raw)
        switch parsed {
        case .failure:
            guard model == nil else {
                return FuzzViolation(target: name, invariant: "a path the model accepts is accepted",
                                     evidence: "\(Evidence.text(raw)) refused; model \(model!)")
            }
            return nil
        case .success(let path):
            if let violation = checkConfined(path, raw: raw) { return violation }
            guard let model, model == path.segments.map({ Array($0.utf8) }) else {
                return FuzzViolation(target: name, invariant: "the accepted path equals the model's",
                                     evidence: "\(Evidence.text(raw)) → \(path.segments); model \(model.map { "\($0)" } ?? "refuses")")
            }
            let encoded = path.encoded(trailingSlash: path.trailingSlash)
            guard case .success(let again) = RequestPath.parse(encoded), again.segments == path.segments else {
                return FuzzViolation(target: name, invariant: "a re-encoded path parses back to the same segments",
                                     evidence: "\(Evidence.text(raw)) → \(Evidence.text(encoded))")
            }
            return nil
        }
    }

    /// The segments of an accepted path cannot leave the root they are joined under.
    /// - Parameters:
    ///   - path: an accepted path.
    ///   - raw: the raw text, for the report.
    /// - Returns: the broken promise, or nil.
    public static func checkConfined(_ path: RequestPath, raw: String) -> FuzzViolation? {
        for segment in path.segments {
            let bytes = Array(segment.utf8)
            guard !bytes.isEmpty, bytes != Array(".".utf8), bytes != Array("..".utf8),
                  !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) else {
                return FuzzViolation(target: name, invariant: "an accepted path's segments stay inside the root",
                                     evidence: "\(Evidence.text(raw)) → segment \(Evidence.text(segment))")
            }
        }
        return nil
    }

    /// The specification, written plainly: split at `/`, percent-decode each segment once
    /// (refusing bad `%`, an encoded `/`, controls, `\` and invalid UTF-8), drop empty and `.`
    /// segments, let `..` remove the previous one and refuse it at the root.
    static func modelSegments(_ raw: String) -> [[UInt8]]? {
        let bytes = Array(raw.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var stack: [[UInt8]] = []
        for piece in bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var decoded: [UInt8] = []
            var index = piece.startIndex
            while index < piece.endIndex {
                if piece[index] == UInt8(ascii: "%") {
                    guard index + 2 < piece.endIndex, let high = PathChecks.hexValue(piece[index + 1]),
                          let low = PathChecks.hexValue(piece[index + 2]) else { return nil }
                    decoded.append(high << 4 | low)
                    index += 3
                } else {
                    decoded.append(piece[index])
                    index += 1
                }
            }
            guard !decoded.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }),
                  String(validating: decoded, as: UTF8.self) != nil else { return nil }
            if decoded.isEmpty || decoded == [UInt8(ascii: ".")] { continue }
            if decoded == Array("..".utf8) {
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                continue
            }
            stack.append(decoded)
        }
        return stack
    }
}
