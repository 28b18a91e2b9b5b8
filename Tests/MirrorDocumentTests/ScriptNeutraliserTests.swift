import Testing
@testable import MirrorDocument

@Suite struct ScriptNeutraliserTests {
    static let inert = ScriptNeutraliser.inertType

    @Test(arguments: [
        ("<script>go()</script>", "<script type=\"\(inert)\">go()</script>", 1),
        ("<script src=\"/app.js\"></script>", "<script type=\"\(inert)\" src=\"/app.js\"></script>", 1),
        ("<SCRIPT type=\"text/javascript\">x</SCRIPT>", "<SCRIPT type=\"\(inert)\">x</SCRIPT>", 1),
        ("<script type=module src=m.js></script>", "<script type=\(inert) src=m.js></script>", 1),
        ("<script type=\"\">x</script>", "<script type=\"\(inert)\">x</script>", 1),
        ("<script type>x</script>", "<script type=\"\(inert)\">x</script>", 1),
        ("<script type=\" Application/JavaScript \">x</script>", "<script type=\"\(inert)\">x</script>", 1),
        ("<script type=\"application/json\">{\"a\":1}</script>", "<script type=\"application/json\">{\"a\":1}</script>", 0),
        ("<script type=\"application/ld+json\">{}</script>", "<script type=\"application/ld+json\">{}</script>", 0),
        // Markup inside a script's text is text: not a second script.
        ("<script>document.write('<script>evil()</script' + '>')</script>",
         "<script type=\"\(inert)\">document.write('<script>evil()</script' + '>')</script>", 1),
        ("<!-- <script>x</script> --><p>", "<!-- <script>x</script> --><p>", 0),
    ])
    func scripts(input: String, output: String, count: Int) throws {
        let result = try ScriptNeutraliser.neutralise(Array(input.utf8))
        #expect(String(decoding: result.bytes, as: UTF8.self) == output)
        #expect(result.scripts == count)
    }

    @Test(arguments: [
        (##"<body onload="init()"><a href="#" onclick="go()">x</a></body>"##, ##"<body><a href="#">x</a></body>"##, 2),
        (#"<img src="a.png" onerror='x()' alt="one">"#, #"<img src="a.png" alt="one">"#, 1),
        (#"<p only="yes" once>text</p>"#, #"<p>text</p>"#, 2),
        (#"<div on="x" data-onclick="y">"#, #"<div on="x" data-onclick="y">"#, 0),
        // Names of more than 16 bytes are told apart by all their bytes.
        (#"<div data-a-long-attribute-name="1" onanimationiteration="x()">"#, #"<div data-a-long-attribute-name="1">"#, 1),
    ])
    func eventHandlers(input: String, output: String, count: Int) throws {
        let result = try ScriptNeutraliser.neutralise(Array(input.utf8))
        #expect(String(decoding: result.bytes, as: UTF8.self) == output)
        #expect(result.handlers == count)
    }

    @Test func insertsThePolicyFirstInHeadAndKeepsEveryOtherByte() throws {
        let page = "<!DOCTYPE html>\n<html lang=\"fr\"><head><meta charset=\"utf-8\"><title>é &amp; <b></title></head>"
            + "<body><p>Texte — ünïcödé</p><textarea><script>not a script</script></textarea></body></html>"
        let result = try ScriptNeutraliser.neutralise(Array(page.utf8))
        #expect(result.policyInserted)
        #expect(result.scripts == 0, "a script inside textarea text is text")
        let expected = page.replacingOccurrences(of: "<head>", with: "<head>" + ScriptNeutraliser.policy)
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
    }

    @Test func aDocumentWithoutHeadGetsNoPolicy() throws {
        let result = try ScriptNeutraliser.neutralise(Array("<svg><script>x()</script></svg>".utf8))
        #expect(!result.policyInserted)
        #expect(result.scripts == 1)
    }

    @Test func arbitraryBytesNeverFailOrGrowWithoutReason() throws {
        var state: UInt64 = 99
        let alphabet = Array("<>/=\"' scriptheadonloadtype!-a".utf8)
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 200) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            let result = try ScriptNeutraliser.neutralise(bytes)
            let bound = bytes.count + ScriptNeutraliser.policy.utf8.count + (result.scripts * (ScriptNeutraliser.inertType.utf8.count + 8))
            #expect(result.bytes.count <= bound)
        }
    }
}
