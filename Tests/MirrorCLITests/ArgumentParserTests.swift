import Testing
@testable import MirrorCLI

@Suite struct ArgumentParserTests {
    let spec = FetchCommand.spec

    @Test func parsesLongShortInlineAndRepeatable() throws {
        let parsed = try ArgumentParser.parse(
            ["https://h/", "-o", "out", "--cert=me.p12", "-ik", "-H", "A: 1", "--header", "B: 2", "--", "-notanoption"], spec: spec)
        #expect(parsed.positionals == ["https://h/", "-notanoption"])
        #expect(parsed.value("output") == "out")
        #expect(parsed.value("cert") == "me.p12")
        #expect(parsed.flag("include") && parsed.flag("insecure"))
        #expect(parsed.all("header") == ["A: 1", "B: 2"])
    }

    @Test(arguments: [
        ["--nope"], ["-Z"], ["--output"], ["--cert", "a", "--cert", "b"], ["--insecure=yes"],
    ])
    func rejectsBadArguments(arguments: [String]) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments, spec: spec) }
    }

    @Test func everyCommandHasHelpWithExamples() {
        for command in Command.allCases {
            let help = command.spec.helpText
            #expect(help.contains("Usage: mtls-mirror \(command.rawValue)"))
            #expect(help.contains("Examples:"))
            #expect(help.contains("--help"))
        }
    }

    @Test func exitCodesAreDistinct() {
        let values = ExitCode.allCases.map(\.rawValue)
        #expect(Set(values).count == values.count)
    }
}
