import Foundation
import Testing
import TOMLConfig
import TickerSources

/// sources.toml: every mistake names the file, the line and the key.
@Suite struct SourcesConfigTests {
    static let file = "/etc/tickerd/sources.toml"

    func error(_ text: String) -> ConfigError? {
        do {
            _ = try SourcesConfigLoader().parse(text, file: Self.file)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsACommandSource() throws {
        let config = try SourcesConfigLoader().parse("""
            lease = "12s"

            [[source]]
            name = "load"
            type = "command"
            channel = "status"
            priority = 3
            command = "cat /proc/loadavg"
            interval = "5s"
            template = "load {output}"
            url = "https://example.org/load"
            """, file: Self.file)
        #expect(config.timing.lease == 12_000_000)
        let entry = try #require(config.entries.first)
        #expect(entry.binding.name == "load" && entry.binding.channel == "status" && entry.binding.priority == 3)
        #expect(entry.binding.template.render(["output": "0.5"]) == "load 0.5")
        #expect(!entry.needsNetwork)
    }

    @Test func mistakesNameFileLineAndKey() {
        let header = "[[source]]\nname = \"c\"\ntype = \"command\"\ncommand = \"true\"\ninterval = \"1s\"\n"
        let cases: [(String, Int, String, String)] = [
            (header + "template = \"{output\"", 6, "source[1].template", "never closed"),
            (header + "template = \"load {artist}\"", 6, "source[1].template", "column 6: unknown field '{artist}'"),
            (header + "template = \"[{output} x\"", 6, "source[1].template", "column 1: the optional part opened here is never closed"),
            (header + "template = \"[load] {output}\"", 6, "source[1].template", "column 1: the optional part opened here has no field"),
            (header + "template = \"{output}\"\ncolour = 1", 7, "source[1].colour", "unknown key"),
            (header + "template = \"x\"\nurl = \"not a link\"", 7, "source[1].url", "absolute URI"),
            (header + "template = \"x\"\nchannel = \"no-dash\"", 7, "source[1].channel", "channel names"),
            ("[[source]]\nname = \"c\"\ntype = \"radio\"\ntemplate = \"x\"", 3, "source[1].type", "unknown source type"),
            ("lease = \"soon\"", 1, "lease", "time span"),
            (header + "template = \"x\"\n" + header + "template = \"y\"", 8, "source[2].name", "used by an earlier source"),
            ("[[source]]\nname = \"c\"\ntype = \"command\"\ninterval = \"1s\"\ntemplate = \"x\"", 1, "source[1].command", "missing"),
        ]
        for (text, line, key, words) in cases {
            let error = error(text)
            #expect(error?.file == Self.file, "\(text)")
            #expect(error?.line == line, "\(String(describing: error))")
            #expect(error?.key == key, "\(String(describing: error))")
            #expect(error?.problem.contains(words) == true, "\(String(describing: error))")
        }
    }

    /// Mistakes in several sources: one check names each common key's mistake and the kind's
    /// first, in file order (a name used again counts against the sources read without a mistake).
    @Test func everySourcesMistakesAreNamed() throws {
        let header = "[[source]]\nname = \"c\"\ntype = \"command\"\ncommand = \"true\"\ninterval = \"1s\"\n"
        let text = "lease = \"soon\"\n" + header + "template = \"{output\"\ncolour = 1\n"
            + "[[source]]\nname = \"ok\"\ntype = \"command\"\ncommand = \"true\"\ninterval = \"1s\"\ntemplate = \"x\"\n"
            + header.replacingOccurrences(of: "\"c\"", with: "\"ok\"") + "template = \"y\"\n"
        let found = try #require(self.error(text))
        #expect(found.listed.map { "\($0.line) \($0.key)" }
            == ["1 lease", "7 source[1].template", "8 source[1].colour", "16 source[3].name"])
        #expect(found.description.split(separator: "\n").count == 4)
        // A common key's mistake and the kind's own, in one source.
        let both = try #require(self.error(
            "[[source]]\nname = \"c\"\ntype = \"command\"\nchannel = \"no-dash\"\ncommand = \"true\"\ninterval = \"soon\"\ntemplate = \"x\"\n"))
        #expect(both.listed.map { "\($0.line) \($0.key)" } == ["4 source[1].channel", "6 source[1].interval"])
        // A key the type reads twice (a calendar's url: its source and whether it needs the
        // network) is named once.
        let once = try #require(self.error("[[source]]\nname = \"cal\"\ntype = \"calendar\"\nurl = 5\ntemplate = \"{summary}\"\n"))
        #expect(once.listed.map { "\($0.line) \($0.key)" } == ["4 source[1].url"])
    }

    /// A file that is not UTF-8 (a Latin-1 é in a template) was refused with line 0: the person
    /// had to search the file for it.
    @Test func bytesThatAreNotUTF8AreRefusedWithTheirLineAndColumn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sources-utf8-\(getpid()).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = [UInt8]("[[source]]\nname = \"c\"\ntemplate = \"caf".utf8) + [0xE9] + [UInt8]("\"\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigError.self) { try SourcesConfigLoader().load(path: path) }
        #expect(error?.description == "\(path):3: column 16: not valid UTF-8 (a TOML file is UTF-8 text)")
    }

    @Test func syntaxErrorsHaveALine() {
        let error = error("lease = \"1s\"\n[[source]\n")
        #expect(error?.line == 2)
    }
}
