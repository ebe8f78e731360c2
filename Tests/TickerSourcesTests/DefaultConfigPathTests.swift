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
