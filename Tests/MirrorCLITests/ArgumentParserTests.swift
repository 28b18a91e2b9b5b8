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

    @Test func aRenamedOptionKeepsItsOldSpellingAsAHiddenAlias() throws {
        let old = try ArgumentParser.parse(["https://h/", "--max-filesize", "64MiB"], spec: spec)
        #expect(old.value("max-file-size") == "64MiB")
        let new = try ArgumentParser.parse(["https://h/", "--max-file-size=1000"], spec: spec)
        #expect(new.value("max-file-size") == "1000")
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--max-filesize", "1", "--max-file-size", "2"], spec: spec) }
        #expect(!spec.helpText.contains("max-filesize") && spec.helpText.contains("--max-file-size"))
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
