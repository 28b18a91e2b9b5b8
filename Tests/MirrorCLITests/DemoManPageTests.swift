import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// `mtls-mirror man`: generated from the command tables, valid roff.
@Suite struct DemoManPageTests {
    let page = ManPage.render(commands: ManCommand.documentedCommands)

    @Test("every command and every option of every command appears, and every exit code")
    func everythingDocumented() {
        let names = ManCommand.documentedCommands.map(\.name)
        for required in ["mirror", "serve", "fetch", "inspect", "demo", "init", "man"] {
            #expect(names.contains(required))
        }
        for spec in ManCommand.documentedCommands {
            #expect(page.contains(".SS \(ManPage.escape(spec.name))\n"), "\(spec.name)")
            for option in spec.options {
                #expect(page.contains("\\fB\\-\\-\(ManPage.escape(option.name))\\fR"), "\(spec.name) --\(option.name)")
            }
        }
        for code in ExitCode.allCases {
            #expect(page.contains(".TP\n\\fB\(code.rawValue)\\fR\n"), "exit code \(code.rawValue)")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "EXAMPLES", "FILES", "ENVIRONMENT"] {
            #expect(page.contains(".SH \(section)\n"), "\(section)")
        }
        #expect(page.contains("NO_COLOR") && page.contains("config.json"))
    }

    @Test("no body line starts with a dot or quote that roff would take as a request")
    func escaping() {
        #expect(ManPage.escape(".hidden") == "\\&.hidden")
        #expect(ManPage.escape("a-b\\c") == "a\\-b\\ec")
        #expect(ManPage.escape("…≥") == "\\[u2026]\\[u2265]")
        let requests = Set([".TH", ".SH", ".SS", ".PP", ".TP", ".nf", ".fi", ".RS", ".RE", ".B", ".I", ".\\\""])
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            let word = String(line.prefix { $0 != " " })
            #expect(requests.contains(word), "unexpected request line: \(line)")
        }
    }

    @Test("man -l renders it without warnings")
    func rendersWithMan() throws {
        let folder = try TemporaryDirectory(prefix: "man-page")
        let file = folder.path + "/mtls-mirror.1"
        try page.write(toFile: file, atomically: true, encoding: .utf8)
        let groff = try #require(CommandRunner.forTool(named: "groff"), "groff is installed by install-deps (man-db)")
        let checked = groff.run(["-man", "-Tutf8", "-ww", "-z", file], timeout: 30)
        #expect(checked.exitCode == 0, "\(checked)")
        #expect(checked.stderr.isEmpty, "groff warnings: \(checked.stderr)")
        let man = try #require(CommandRunner.forTool(named: "man"))
        let rendered = man.run(["-l", file], environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": "0", "PAGER": "cat"], timeout: 30)
        #expect(rendered.exitCode == 0, "\(rendered)")
        #expect(rendered.stderr.isEmpty, "\(rendered.stderr)")
        #expect(rendered.stdout.contains("--origin-port"))
        #expect(rendered.stdout.contains("mtls-mirror - mirror, serve and refresh"))
    }
}
