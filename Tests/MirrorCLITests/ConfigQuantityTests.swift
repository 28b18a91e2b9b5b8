import Testing
@testable import MirrorCLI

@Suite struct ConfigQuantityTests {
    @Test(arguments: [
        ("4096", 4096), ("256MiB", 268_435_456), ("2GiB", 2_147_483_648), ("500KB", 500_000), ("500kb", 500_000),
        ("1.5 KiB", 1536), ("10B", 10), ("3MB", 3_000_000), ("1TiB", 1_099_511_627_776), ("0", 0),
    ] as [(String, Int64)])
    func sizesParse(text: String, bytes: Int64) {
        #expect(ConfigQuantity.bytes(text) == bytes)
    }

    @Test(arguments: ["", "MiB", "12XB", "-1KB", "1..5MB", ".5MB", "1e3", "5 M B", "99999999TiB"])
    func badSizesAreRefused(text: String) {
        #expect(ConfigQuantity.bytes(text) == nil)
    }

    @Test(arguments: [
        ("30", 30), ("30s", 30), ("10m", 600), ("6h", 21_600), ("1d", 86_400), ("1h30m", 5400), ("250ms", 0.25),
        ("1.5h", 5400), ("2w", 1_209_600), ("0s", 0), (" 5s ", 5),
    ] as [(String, Double)])
    func durationsParse(text: String, seconds: Double) {
        #expect(ConfigQuantity.seconds(text) == seconds)
    }

    @Test(arguments: ["", "s", "10 minutes", "10x", "-5s", "5s-", "1y", "nan", ".5s"])
    func badDurationsAreRefused(text: String) {
        #expect(ConfigQuantity.seconds(text) == nil)
    }

    @Test(arguments: [
        (268_435_456, ConfigJSON.string("256MiB")), (1024, .string("1KiB")), (1000, .number("1000")), (0, .number("0")),
    ] as [(Int64, ConfigJSON)])
    func sizesFormatExactly(bytes: Int64, json: ConfigJSON) {
        #expect(ConfigQuantity.formatBytes(bytes) == json)
    }

    @Test(arguments: [(600.0, "10m"), (5400, "1h30m"), (0, "0s"), (1.5, "1.5s"), (90_061, "1d1h1m1s")] as [(Double, String)])
    func durationsFormatAndParseBack(seconds: Double, text: String) {
        #expect(ConfigQuantity.formatSeconds(seconds) == .string(text))
        #expect(ConfigQuantity.seconds(text) == seconds)
    }

    @Test(arguments: [
        ("maxPage", "maxPages"), ("MAXPAGES", "maxPages"), ("retrys", "retries"), ("timeout", nil), ("x", nil), ("maxBytez", "maxBytes"),
    ] as [(String, String?)])
    func suggestionsFindTypos(key: String, suggestion: String?) {
        #expect(KeySuggestion.closest(to: key, among: LimitsConfig.keys) == suggestion)
    }

    @Test func editDistanceCountsEdits() {
        #expect(KeySuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(KeySuggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(KeySuggestion.editDistance(Array("same"), Array("same")) == 0)
    }

    @Test func parserKeepsOrderNumbersAndEscapes() throws {
        let json = try ConfigJSONParser.parse(Array(#"{"b": 1.50, "a": [true, 1, null], "s": "\u00e9\ud83d\ude00\n\"/"}"#.utf8))
        #expect(json == .object([
            .init("b", .number("1.50")),
            .init("a", .array([.bool(true), .number("1"), .null])),
            .init("s", .string("é😀\n\"/")),
        ]))
        #expect(ConfigJSON.string("a\"b\n\u{01}").pretty() == #""a\"b\n\u0001""#)
    }

    @Test func fieldPathsQuoteNonIdentifierKeys() {
        let path = FieldPath.root.key("sites").index(0).key("trust").key("hosts").key("cdn.example.com").key("pins").index(1)
        #expect(path.description == #"sites[0].trust.hosts["cdn.example.com"].pins[1]"#)
        #expect(FieldPath.root.key("X-Token").description == #"["X-Token"]"#)
    }
}
