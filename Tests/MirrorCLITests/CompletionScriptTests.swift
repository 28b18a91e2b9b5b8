import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// A folder with a two-site config.json and the built binary on `PATH`, where the completion
/// scripts run as they would in a user's shell.
struct CompletionFixture {
    let folder: TemporaryDirectory
    let binary = CommandRunner.builtBinary(named: "mtls-mirror")

    init() throws {
        folder = try TemporaryDirectory(prefix: "completions")
        try Data("""
            {"sites": [{"name": "intranet", "start": ["https://intranet.example/"]},
                       {"name": "wiki", "start": ["https://wiki.example/"]}]}
            """.utf8).write(to: folder.appending("config.json"))
        try FileManager.default.createDirectory(at: folder.appending("other"), withIntermediateDirectories: true)
        try Data("""
            {"sites": [{"name": "elsewhere", "start": ["https://elsewhere.example/"]}]}
            """.utf8).write(to: folder.appending("other/fleet.json"))
        try FileManager.default.createDirectory(at: folder.appending("certs"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appending("certs/me.p12"))
    }

    /// `PATH` with the built binary first, as after installing the package.
    var environment: [String: String] {
        ["PATH": binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
         "HOME": folder.path]
    }

    /// The script the binary prints for `shell`.
    func script(_ shell: String) throws -> String {
        let result = CommandRunner(executable: binary, workingDirectory: folder.url).run(["completions", shell])
        try #require(result.succeeded, "\(result)")
        return result.stdout
    }

    /// The shell `name`; a missing shell fails the test with the install step.
    static func shell(_ name: String) throws -> URL {
        try #require(CommandRunner.tool(named: name), "\(name) is not installed: run scripts/install-deps.sh")
    }

    /// Completes the last of `words` the way bash does on TAB: the script is sourced into a
    /// real bash, `COMP_WORDS`/`COMP_CWORD`/`COMP_LINE`/`COMP_POINT` are set as readline sets
    /// them, and the function that `complete -p mtls-mirror` names is called; returns COMPREPLY.
    func bash(_ words: [String], script: String? = nil) throws -> [String] {
        let file = folder.appending("completion.bash")
        try (script ?? self.script("bash")).write(to: file, atomically: true, encoding: .utf8)
        let driver = """
            source "$1"; shift
            spec=$(complete -p mtls-mirror) || exit 3
            function=${spec#complete -F }; function=${function%% *}
            COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            "$function" mtls-mirror "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let bash = CommandRunner(executable: try Self.shell("bash"), workingDirectory: folder.url)
        let result = bash.run(["--norc", "--noprofile", "-c", driver, "bash", file.path] + words, environment: environment, timeout: 30)
        try #require(result.succeeded, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }
}

@Suite struct BashCompletionTests {
    static let cases: [(words: [String], expected: [String])] = [
        (["mtls-mirror", "mi"], ["mirror"]),
        (["mtls-mirror", "mirror", "--ce"], ["--cert", "--cert-type"]),
        (["mtls-mirror", "mirror", "--cert-type", ""], ["P12", "PEM"]),
        (["mtls-mirror", "fetch", "--cert-type", "PE"], ["PEM"]),
        (["mtls-mirror", "--log-format", ""], ["text", "json"]),
        (["mtls-mirror", "mirror", "--log-format", "j"], ["json"]),
        (["mtls-mirror", "--log-format", "json", "ref"], ["refresh"]),
        (["mtls-mirror", "refresh", ""], ["intranet", "wiki"]),
        (["mtls-mirror", "rollback", "w"], ["wiki"]),
        (["mtls-mirror", "serve", "--site", ""], ["intranet", "wiki"]),
        (["mtls-mirror", "schedule", "--site", "=", "in"], ["intranet"]),
        (["mtls-mirror", "refresh", "--config", "other/fleet.json", ""], ["elsewhere"]),
        (["mtls-mirror", "mirror", "-c", "=", "other/fleet.json", "--site", ""], ["elsewhere"]),
        (["mtls-mirror", "completions", ""], ["bash", "zsh", "fish"]),
        (["mtls-mirror", "mirror", "--cert", "certs/m"], ["certs/me.p12"]),
        (["mtls-mirror", "mirror", "-o", "ot"], ["other"]),
        (["mtls-mirror", "-"], ["-h", "--help", "-V", "--version", "--log-format", "-q", "--quiet", "--debug"]),
        (["mtls-mirror", "schedule", "--print-k"], ["--print-kubernetes"]),
        (["mtls-mirror", "schedule", "--print-systemd", "--te"], ["--template"]),
    ]

    @Test("TAB in a real bash completes commands, options, closed value sets, files and site names", arguments: cases)
    func completes(words: [String], expected: [String]) throws {
        let fixture = try CompletionFixture()
        #expect(try fixture.bash(words) == expected, "\(words)")
    }

    static let nothing: [[String]] = [
        ["mtls-mirror", "mirror", "--jobs", ""],          // a number: no guesses
        ["mtls-mirror", "fetch", "https://x/", "--cert-type", "X"],  // not one of P12, PEM
        ["mtls-mirror", "mirror", "--site", "nope"],      // no such site
        ["mtls-mirror", "zz"],                            // no such command
        ["mtls-mirror", "man", "--ce"],                   // man has no --cert
    ]

    @Test("words that do not fit complete to nothing", arguments: nothing)
    func completesNothing(words: [String]) throws {
        let fixture = try CompletionFixture()
        #expect(try fixture.bash(words) == [], "\(words)")
    }

    @Test("without a readable config, site names complete to nothing and nothing is printed on the terminal")
    func sitesWithoutConfig() throws {
        let fixture = try CompletionFixture()
        try FileManager.default.removeItem(at: fixture.folder.appending("config.json"))
        #expect(try fixture.bash(["mtls-mirror", "refresh", ""]) == [])
        #expect(try fixture.bash(["mtls-mirror", "refresh", "--config", "missing.json", ""]) == [])
    }

    @Test("an option added to a command table appears in the script by itself, with its values")
    func generatedFromTheTables() throws {
        let fixture = try CompletionFixture()
        var table = CompletionTable.tool
        let extra = CompletionTable.Entry(
            name: "render", summary: "render pages in a browser",
            options: [OptionSpec("engine", value: "NAME", values: .choices(["chromium", "firefox"]), help: "The browser."),
                      OptionSpec("wait", value: "MS", help: "Wait.")],
            operands: .site)
        table = CompletionTable(program: table.program, globalOptions: table.globalOptions,
                                everywhereOptions: table.everywhereOptions, commands: table.commands + [extra])
        let script = BashCompletion.script(table)
        #expect(try fixture.bash(["mtls-mirror", "ren"], script: script) == ["render"])
        #expect(try fixture.bash(["mtls-mirror", "render", "--e"], script: script) == ["--engine"])
        #expect(try fixture.bash(["mtls-mirror", "render", "--engine", "c"], script: script) == ["chromium"])
        #expect(try fixture.bash(["mtls-mirror", "render", ""], script: script) == ["intranet", "wiki"])
    }

    @Test("every option of every command table is in the bash script")
    func everyOptionListed() throws {
        let script = BashCompletion.script(.tool)
        for command in Command.allCases {
            for option in command.spec.options {
                #expect(script.contains("--\(option.name)"), "\(command.rawValue) --\(option.name)")
            }
        }
    }
}

@Suite struct CompletionsCommandTests {
    @Test("completions --sites lists the config's sites, one a line")
    func sites() throws {
        let fixture = try CompletionFixture()
        let tool = CommandRunner(executable: fixture.binary, workingDirectory: fixture.folder.url)
        let here = tool.run(["completions", "--sites"])
        #expect(here.succeeded && here.stdout == "intranet\nwiki\n", "\(here)")
        let there = tool.run(["completions", "--sites", "--config", "other/fleet.json"])
        #expect(there.succeeded && there.stdout == "elsewhere\n", "\(there)")
    }

    static let misuse: [[String]] = [
        ["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"], ["completions", "--config", "x.json", "bash"],
        ["completions", "--sites", "bash"],
    ]

    @Test("a missing or unknown shell is a usage error (exit 2) with a try: line", arguments: misuse)
    func usageErrors(arguments: [String]) throws {
        let fixture = try CompletionFixture()
        let result = CommandRunner(executable: fixture.binary, workingDirectory: fixture.folder.url).run(arguments)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("try:"), "\(result)")
    }

    @Test("--sites with a broken config exits 2 and names the file")
    func brokenConfig() throws {
        let fixture = try CompletionFixture()
        try Data("{\"sites\": [".utf8).write(to: fixture.folder.appending("config.json"))
        let result = CommandRunner(executable: fixture.binary, workingDirectory: fixture.folder.url).run(["completions", "--sites"])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty && result.stderr.contains("config.json"), "\(result)")
    }
}

@Suite struct ZshAndFishCompletionTests {
    @Test("zsh -n and fish --no-execute accept the scripts")
    func scriptsParse() throws {
        let fixture = try CompletionFixture()
        let zshFile = fixture.folder.appending("_mtls-mirror")
        try fixture.script("zsh").write(to: zshFile, atomically: true, encoding: .utf8)
        let zsh = CommandRunner(executable: try CompletionFixture.shell("zsh")).run(["-n", zshFile.path])
        #expect(zsh.succeeded && zsh.stderr.isEmpty, "\(zsh)")
        let fishFile = fixture.folder.appending("mtls-mirror.fish")
        try fixture.script("fish").write(to: fishFile, atomically: true, encoding: .utf8)
        let fish = CommandRunner(executable: try CompletionFixture.shell("fish")).run(["--no-execute", fishFile.path])
        #expect(fish.succeeded && fish.stderr.isEmpty, "\(fish)")
        // A broken script is caught: the checks above can fail.
        try "complete -c x -a '(".write(to: fishFile, atomically: true, encoding: .utf8)
        #expect(CommandRunner(executable: try CompletionFixture.shell("fish")).run(["--no-execute", fishFile.path]).exitCode != 0)
        try "_f() { case $1 in".write(to: zshFile, atomically: true, encoding: .utf8)
        #expect(CommandRunner(executable: try CompletionFixture.shell("zsh")).run(["-n", zshFile.path]).exitCode != 0)
    }

    static let fishCases: [(line: String, expected: [String])] = [
        ("mtls-mirror mi", ["mirror"]),
        ("mtls-mirror mirror --ce", ["--cert", "--cert-type"]),
        ("mtls-mirror inspect --cert-type ", ["P12", "PEM"]),
        ("mtls-mirror --log-format ", ["json", "text"]),
        ("mtls-mirror refresh ", ["intranet", "wiki"]),
        ("mtls-mirror serve --config other/fleet.json --site ", ["elsewhere"]),
    ]

    @Test("fish's own completer (complete -C) gives the same answers", arguments: fishCases)
    func fishCompletes(line: String, expected: [String]) throws {
        let fixture = try CompletionFixture()
        let file = fixture.folder.appending("mtls-mirror.fish")
        try fixture.script("fish").write(to: file, atomically: true, encoding: .utf8)
        let fish = CommandRunner(executable: try CompletionFixture.shell("fish"), workingDirectory: fixture.folder.url)
        let result = fish.run(["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", file.path, line],
                              environment: fixture.environment, timeout: 30)
        try #require(result.succeeded, "\(result)")
        let words = result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(words == expected, "\(line): \(result.stdout)")
    }

    @Test("TAB in an interactive zsh (through zsh/zpty) completes commands, options, values and sites")
    func zshCompletes() throws {
        let fixture = try CompletionFixture()
        let functions = fixture.folder.appending("zfunc")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try fixture.script("zsh").write(to: functions.appendingPathComponent("_mtls-mirror"), atomically: true, encoding: .utf8)
        // Each line is typed with a TAB; what the terminal shows (escape sequences removed) is
        // printed after a marker, and the line is cleared (Ctrl-U) for the next one.
        let driver = """
            zmodload zsh/zpty
            zpty z 'zsh -f -i'
            zpty -w z "PS1='> '; fpath=($1 \\$fpath); autoload -Uz compinit; compinit -u -D; unsetopt beep"
            sleep 1
            shift
            for line in "$@"; do
              zpty -w -n z "$line"$'\\t'
              sleep 2
              out=
              while zpty -r -t z chunk; do out+=$chunk; done
              print -r -- "=== $line"
              print -r -- "$out" | sed 's/\\x1b\\[[0-9;?]*[a-zA-Z]//g' | tr '\\r' '\\n'
              zpty -w -n z $'\\C-u'
              sleep 0.3
              while zpty -r -t z chunk; do :; done
            done
            zpty -d z
            """
        let lines = ["mtls-mirror mi", "mtls-mirror mirror --ce", "mtls-mirror refresh ", "mtls-mirror --log-format "]
        let zsh = CommandRunner(executable: try CompletionFixture.shell("zsh"), workingDirectory: fixture.folder.url)
        let result = zsh.run(["-f", "-c", driver, "zsh", functions.path] + lines, environment: fixture.environment, timeout: 60)
        try #require(result.succeeded, "\(result)")
        let sections = result.stdout.components(separatedBy: "=== ").dropFirst()
        try #require(sections.count == lines.count, "\(result.stdout)")
        let shown = Array(sections)
        #expect(shown[0].contains("mtls-mirror mirror "), "\(shown[0])")
        #expect(shown[1].contains("--cert ") && shown[1].contains("--cert-type "), "\(shown[1])")
        #expect(shown[1].contains("Force the certificate type"), "\(shown[1])")
        #expect(shown[2].contains("intranet") && shown[2].contains("wiki"), "\(shown[2])")
        #expect(shown[3].contains("json") && shown[3].contains("text"), "\(shown[3])")
        #expect(!shown[3].contains("intranet"), "\(shown[3])")
    }
}
