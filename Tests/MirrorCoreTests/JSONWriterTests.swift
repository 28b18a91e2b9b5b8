import Foundation
import MirrorCore
import Testing

/// ``JSONWriter``: what it writes parses as JSON to the values given, whatever the text holds.
@Suite struct JSONWriterTests {
    static func parsed(_ bytes: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    @Test(arguments: [
        "plain", "", "quote \" and backslash \\", "slash / stays", "line\nbreak\r\ttab", "\u{08}\u{0C}",
        "control \u{01}\u{1F}\u{00}", "ünïcødé → 😀", "</script>", "\u{7F} delete",
    ])
    func stringsComeBackAsWritten(text: String) throws {
        var json = JSONWriter()
        json.string(text)
        #expect(try Self.parsed(json.bytes) as? String == text)
        #expect(!json.bytes.contains { $0 < 0x20 }, "no raw control character in JSON text")
    }

    @Test func slashesAreNotEscaped() {
        var json = JSONWriter()
        json.string("https://host/a/b")
        #expect(String(decoding: json.bytes, as: UTF8.self) == "\"https://host/a/b\"")
    }

    @Test func nestedContainersCompactAndPretty() throws {
        for pretty in [false, true] {
            var json = JSONWriter(pretty: pretty)
            json.beginObject()
            json.field("a", 1)
            json.key("list")
            json.beginArray()
            json.string("x")
            json.int(-2)
            json.bool(true)
            json.null()
            json.beginObject()
            json.endObject()
            json.beginArray()
            json.endArray()
            json.endArray()
            json.field("absent", nil as String?)
            json.field("counts", ["b": 2, "a": 1])
            json.key("d")
            json.double(0.1)
            json.key("nan")
            json.double(.nan)
            json.key("raw")
            json.raw(Array("{\"r\":[1]}".utf8))
            json.endObject()
            let object = try #require(try Self.parsed(json.bytes) as? [String: Any])
            #expect(object["a"] as? Int == 1)
            #expect(object["absent"] == nil, "a nil field is left out")
            let list = try #require(object["list"] as? [Any])
            #expect(list.count == 6)
            #expect(list[0] as? String == "x" && list[1] as? Int == -2 && list[2] as? Bool == true && list[3] is NSNull)
            #expect((list[4] as? [String: Any])?.isEmpty == true && (list[5] as? [Any])?.isEmpty == true)
            #expect(object["counts"] as? [String: Int] == ["a": 1, "b": 2])
            #expect(object["d"] as? Double == 0.1)
            #expect(object["nan"] is NSNull, "JSON has no NaN")
            #expect((object["raw"] as? [String: Any])?["r"] as? [Int] == [1])
            let text = String(decoding: json.bytes, as: UTF8.self)
            #expect(text.contains("\n") == pretty)
            #expect(text.range(of: "\"a\" : 1") != nil || !pretty)
            #expect(text.firstRange(of: "\"a\"")!.lowerBound < text.firstRange(of: "\"b\"")!.lowerBound, "counts' keys sorted")
        }
    }

    @Test(arguments: [0.0, 1.5, -2.25, 1e-7, 123456789.125, Double.ulpOfOne, 0.00712895393371582])
    func doublesRoundTrip(value: Double) throws {
        var json = JSONWriter()
        json.double(value)
        let decoded = try JSONDecoder().decode(Double.self, from: Data(json.bytes))
        #expect(decoded == value)
    }
}
