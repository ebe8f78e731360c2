import Foundation
import Testing
import TestSupport

/// Which sources.toml `tickerd-sources` reads without `--config`: chosen by the bus, as tickerd
/// chooses its own, not by who runs it.
@Suite struct DefaultConfigPathTests {
    static func writeSources(named name: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try """
            [[source]]
            name = "\(name)"
            type = "command"
            command = "true"
            interval = "1m"
            template = "{output}"
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A session-bus run reads the user's file, also as root (which read /etc/tickerd's, meant
    /// for the system bus).
    @Test func aSessionRunReadsTheUsersFileWhoeverRunsIt() throws {
        let home = try TemporaryDirectory(prefix: "sources-home")
        try Self.writeSources(named: "from-home", to: home.file(".config/tickerd/sources.toml"))
        let output = try ChildProcess.run(
            TickerdProcess.binary("tickerd-sources"), ["--bus", "session", "--check"],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": "", "CONFIGURATION_DIRECTORY": ""])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("from-home: "), "\(output.stdout)")
    }

    /// A file with several mistakes: `--check` names each on a line of its own, every line
    /// saying who speaks (as the journal shows each line apart), and exits 2.
    @Test func theCheckNamesEachMistakeOnALineOfItsOwn() throws {
        let home = try TemporaryDirectory(prefix: "sources-home")
        let path = home.file("sources.toml")
        try "[[source]]\nname = \"cal\"\ntype = \"calendar\"\nurl = 5\ntemplate = \"{summary}\"\ncolour = 1\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let output = try ChildProcess.run(TickerdProcess.binary("tickerd-sources"), ["--config", path, "--check"])
        #expect(output.status == 2)
        #expect(output.stderr.split(separator: "\n") == [
            "tickerd-sources: \(path):4: source[1].url: expected a string, found integer",
            "tickerd-sources: \(path):6: source[1].colour: unknown key (known keys: channel, file, interval, lead, "
                + "name, poll, priority, template, timezone, type, urgent, url)",
        ], "\(output.stderr)")
    }

    /// A unit's `ConfigurationDirectory=` (the user unit's `~/.config/tickerd`) comes first.
    @Test func theUnitsConfigurationDirectoryComesFirst() throws {
        let home = try TemporaryDirectory(prefix: "sources-home")
        let unit = try TemporaryDirectory(prefix: "sources-unit")
        try Self.writeSources(named: "from-home", to: home.file(".config/tickerd/sources.toml"))
        try Self.writeSources(named: "from-unit", to: unit.file("sources.toml"))
        let output = try ChildProcess.run(
            TickerdProcess.binary("tickerd-sources"), ["--bus", "system", "--check"],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": "", "CONFIGURATION_DIRECTORY": unit.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("from-unit: "), "\(output.stdout)")
    }
}
