import Foundation
import MirrorCore

extension CrawlReport {
    /// `report.json`'s text: pretty-printed, keys sorted, dates in ISO 8601 (whole seconds,
    /// UTC), absent optionals left out, as `JSONEncoder` with `.prettyPrinted`, `.sortedKeys`,
    /// `.withoutEscapingSlashes` and `.iso8601` wrote it, and read back by
    /// ``init(from:)`` as before. Written by hand (``MirrorCore/JSONWriter``), since encoding is
    /// on every run's critical path; render mode's summary, present only when pages were
    /// rendered, still goes through `JSONEncoder`.
    public func jsonBytes() throws -> [UInt8] {
        var json = JSONWriter(pretty: true)
        json.beginObject()
        json.field("added", added)
        json.field("bytes", bytes)
        json.field("changed", changed)
        json.key("durationSeconds")
        json.double(durationSeconds)
        Self.write(&json, "errors", errors.map { [("cause", $0.cause), ("kind", $0.kind), ("referrer", $0.referrer), ("url", $0.url)] })
        json.field("errorsByKind", errorsByKind)
        json.field("failed", failed)
        json.field("fetched", fetched)
        json.field("finishReason", finishReason)
        json.field("finishedAt", UTCTime.iso8601(finishedAt))
        Self.write(&json, "heldBack", heldBack.map { [("detail", $0.detail), ("referrer", $0.referrer), ("rule", $0.rule), ("url", $0.url)] })
        json.field("heldBackByRule", heldBackByRule)
        json.field("heldBackCount", heldBackCount)
        json.field("notFetched", notFetched)
        json.field("notFetchedCount", notFetchedCount)
        json.field("outOfScope", outOfScope)
        json.field("outOfScopeCount", outOfScopeCount)
        json.field("pages", pages)
        json.field("previousSnapshot", previousSnapshot)
        json.field("proxy", proxy)
        json.field("removed", removed)
        if let render {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            json.key("render")
            json.raw(Array(try encoder.encode(render)))
        }
        json.field("requisites", requisites)
        json.field("rewrittenDocuments", rewrittenDocuments)
        json.field("site", site)
        json.field("snapshot", snapshot)
        json.field("stale", stale)
        json.field("startURLs", startURLs)
        json.field("startedAt", UTCTime.iso8601(startedAt))
        json.key("trapPeaks")
        json.beginObject()
        json.field("growingSteps", trapPeaks.growingSteps)
        json.field("pathSegments", trapPeaks.pathSegments)
        json.field("queryVariants", trapPeaks.queryVariants)
        json.field("segmentRepeats", trapPeaks.segmentRepeats)
        json.field("shapeChain", trapPeaks.shapeChain)
        json.endObject()
        json.field("unchanged", unchanged)
        json.field("warnings", warnings)
        json.endObject()
        return json.bytes
    }

    /// An array of objects of string fields (a nil one left out), each object's fields in
    /// the order given.
    private static func write(_ json: inout JSONWriter, _ name: String, _ objects: [[(String, String?)]]) {
        json.key(name)
        json.beginArray()
        for fields in objects {
            json.beginObject()
            for (key, value) in fields { json.field(key, value) }
            json.endObject()
        }
        json.endArray()
    }
}
