import Foundation
import Testing
import TestSupport

/// `tickerd --check-config` as an admin uses it before `systemctl reload tickerd`, and the units'
/// `ExecReload=` lines run the way systemd runs them: the check first, then SIGHUP.
@Suite struct ConfigCheckTests {
    static let tickerd = TickerdProcess.binary("tickerd")

    /// `tickerd ARGUMENTS --check-config` with `environment` added.
    static func check(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Output {
        try ChildProcess.run(tickerd, arguments + ["--check-config"], environment: environment)
    }

    @Test func aGoodFileIsTakenAndTheCheckSaysWhatItHolds() throws {
        let folder = try TemporaryDirectory(prefix: "tickerd-check")
        let path = folder.file("tickerd.toml")
        try """
            [channel.main]
            speed = 12

            [[message]]
            id = "welcome"
            text = "Welcome"

            [[message]]
            text = "Lunch"
            calendar = "*-*-* 12:00"
            duration = "1h"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let checked = try Self.check(["--config", path])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout == "\(path): ok (1 channel section, 2 messages)\n")
        #expect(checked.stderr == "")
    }

    /// The check refuses what the daemon refuses, in the words the daemon answers a `Reload()`
    /// with: the same file, line, key and problem.
    @Test func aMistakeIsNamedAsTheDaemonNamesItAndExitsOne() throws {
        let fixture = try DaemonFixture(config: "[channel.main]\nspeed = 20\n")
        try fixture.daemon.writeConfig("[channel.main]\nspeed = 30\nmode = \"sideways\"\n")
        let checked = try Self.check(["--config", fixture.daemon.configPath])
        #expect(checked.status == 1)
        #expect(checked.stdout == "")
        let reason = checked.stderr.trimmingCharacters(in: .newlines)
        #expect(reason.hasPrefix("\(fixture.daemon.configPath):3: channel.main.mode: "), "\(reason)")

        let reload = try fixture.gdbus(DaemonFixture.managerPath, "\(DaemonFixture.control).Reload", [])
        #expect(reload.status != 0)
        #expect(reload.stderr.contains("InvalidConfig: \(reason); the old configuration stays in force"), "\(reload.stderr)")
    }

    /// A file with mistakes in several sections: the check names each on its own line, and a
    /// reload answers with the same lines, so one pass fixes them all.
    @Test func everySectionsMistakeIsNamedByTheCheckAndTheReload() throws {
        let fixture = try DaemonFixture(config: "[channel.main]\nspeed = 20\n")
        try fixture.daemon.writeConfig("""
            [channel.main]
            mode = "sideways"

            [[message]]
            text = "fine"

            [[message]]
            text = "x"
            ttl = "soon"
            """)
        let path = fixture.daemon.configPath
        let checked = try Self.check(["--config", path])
        #expect(checked.status == 1)
        let lines = checked.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(checked.stderr)")
        #expect(lines.first?.hasPrefix("\(path):2: channel.main.mode: must be one of") == true, "\(checked.stderr)")
        #expect(lines.last?.hasPrefix("\(path):9: message[2].ttl: not a time span") == true, "\(checked.stderr)")

        let reload = try fixture.gdbus(DaemonFixture.managerPath, "\(DaemonFixture.control).Reload", [])
        #expect(reload.status != 0)
        for line in lines { #expect(reload.stderr.contains(line), "\(reload.stderr)") }
        // The old configuration stays: the channel keeps its speed.
        let timeline = try fixture.busctl([
            "get-property", DaemonFixture.service, DaemonFixture.channelPath("main"), DaemonFixture.channelInterface, "Timeline",
        ])
        let fields = try JSONSerialization.jsonObject(with: Data(timeline.stdout.utf8)) as? [String: Any]
        let speed = ((fields?["data"] as? [String: Any])?["speed"] as? [String: Any])?["data"] as? Double
        #expect(speed == 20, "\(timeline.stdout)")
    }

    /// The file is found as the daemon finds it: `$CONFIGURATION_DIRECTORY` (the unit's
    /// `ConfigurationDirectory=`) before the bus's default; a missing default file is no mistake,
    /// a missing `--config` file is.
    @Test func theFileIsFoundAsTheDaemonFindsIt() throws {
        let folder = try TemporaryDirectory(prefix: "tickerd-check")
        let environment = ["CONFIGURATION_DIRECTORY": folder.path]
        let missing = try Self.check(["--bus", "system"], environment: environment)
        #expect(missing.status == 0, "\(missing.stderr)")
        #expect(missing.stdout == "\(folder.file("tickerd.toml")): no such file; tickerd runs with the built-in defaults\n")

        try "[channel.main]\nspeed = \"fast\"\n".write(toFile: folder.file("tickerd.toml"), atomically: true, encoding: .utf8)
        let bad = try Self.check(["--bus", "system"], environment: environment)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("\(folder.file("tickerd.toml")):2: channel.main.speed: "), "\(bad.stderr)")

        let explicit = try Self.check(["--config", folder.file("absent.toml")])
        #expect(explicit.status == 1)
        #expect(explicit.stderr == "\(folder.file("absent.toml")): no such file\n")
    }

    /// A check needs neither a bus nor the state folder, and leaves both alone: it can run while
    /// the daemon runs, or before it was ever started.
    @Test func theCheckTouchesNoBusAndNoState() throws {
        let folder = try TemporaryDirectory(prefix: "tickerd-check")
        let state = folder.file("state")
        try "".write(toFile: folder.file("tickerd.toml"), atomically: true, encoding: .utf8)
        let checked = try Self.check([
            "--bus", "unix:path=\(folder.file("no-bus-here"))", "--config", folder.file("tickerd.toml"), "--state-dir", state,
        ])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout == "\(folder.file("tickerd.toml")): ok (0 channel sections, 0 messages)\n")
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    /// A message whose window has closed for good is taken but never shows: the check names it, as
    /// the daemon's log does.
    @Test func aMessageThatCanNeverShowIsNamed() throws {
        let folder = try TemporaryDirectory(prefix: "tickerd-check")
        let path = folder.file("tickerd.toml")
        try "[[message]]\nid = \"old\"\ntext = \"Gone\"\nend = \"2001-01-01 00:00\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let checked = try Self.check(["--config", path])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("\(path): message 'old' skipped: its window has closed for good or can never open"),
                "\(checked.stdout)")
    }

    static let units = ["systemd/tickerd.service", "systemd/user/tickerd.service"]

    /// `systemctl reload tickerd` as systemd runs it (no manager here): the unit's `ExecReload=`
    /// lines in order, each as the unit's user would see it (`$MAINPID`, `CONFIGURATION_DIRECTORY`),
    /// stopping at the first that fails. A broken file fails the reload with its file, line and
    /// key and never reaches the daemon; a good one reloads it.
    @Test(arguments: units)
    func reloadFailsOnABrokenFileAndAppliesAGoodOne(_ unitPath: String) throws {
        let unit = try UnitFile(unitPath)
        let lines = unit.values("ExecReload")
        let fixture = try DaemonFixture(config: "[channel.main]\nspeed = 20\n")
        let environment = ["CONFIGURATION_DIRECTORY": fixture.daemon.directory.path]

        func systemctlReload() throws -> (status: Int32, stderr: String) {
            for line in lines {
                let words = line.replacingOccurrences(of: "/usr/bin/tickerd", with: Self.tickerd)
                    .replacingOccurrences(of: "$MAINPID", with: "\(fixture.daemon.process.pid)")
                    .split(separator: " ").map(String.init)
                let ran = try ChildProcess.run(words[0], Array(words.dropFirst()), environment: environment)
                if ran.status != 0 { return (ran.status, ran.stderr) }
            }
            return (0, "")
        }

        try fixture.daemon.writeConfig("[channel.main]\nspeed = 30\nmode = \"sideways\"\n")
        let refused = try systemctlReload()
        #expect(refused.status != 0, "\(unitPath): the reload of a broken file succeeded")
        #expect(refused.stderr.hasPrefix("\(fixture.daemon.configPath):3: channel.main.mode: "), "\(refused.stderr)")
        #expect(try fixture.property("main", "Timeline").dictionary["speed"] as? Double == 20)

        try fixture.daemon.writeConfig("[channel.main]\nspeed = 30\n")
        let mark = fixture.daemon.notify.drain()
        let reloaded = try systemctlReload()
        #expect(reloaded.status == 0, "\(reloaded.stderr)")
        #expect(fixture.daemon.notify.wait(timeout: .seconds(10), after: mark) { $0.contains("RELOADING=1") } != nil)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(10), after: mark) { $0.contains("READY=1") } != nil)
        #expect(try fixture.property("main", "Timeline").dictionary["speed"] as? Double == 30)
    }
}

/// `systemctl reload tickerd-sources` as systemd runs it: `tickerd-sources --check` before SIGHUP,
/// so a mistake in sources.toml fails the reload with its file, line and key.
@Suite struct SourcesUnitReloadTests {
    static let units = ["systemd/tickerd-sources.service", "systemd/user/tickerd-sources.service"]

    @Test(arguments: units)
    func reloadChecksSourcesTomlBeforeSignalling(_ unitPath: String) throws {
        let lines = try UnitFile(unitPath).values("ExecReload")
        let folder = try TemporaryDirectory(prefix: "tickerd-sources-check")
        let path = folder.file("sources.toml")
        // The system unit names /etc/tickerd/sources.toml; the user unit finds it through
        // CONFIGURATION_DIRECTORY. Here both read the scratch folder's file.
        let commands = lines.map { line in
            line.replacingOccurrences(of: "/usr/bin/tickerd-sources", with: TickerdProcess.binary("tickerd-sources"))
                .replacingOccurrences(of: "/etc/tickerd/sources.toml", with: path)
                .split(separator: " ").map(String.init)
        }
        #expect(commands.last?.first == "/bin/kill", "\(unitPath): SIGHUP is not the reload's last step")
        let checks = commands.dropLast()
        #expect(!checks.isEmpty, "\(unitPath): the reload signals without checking sources.toml")
        let environment = ["CONFIGURATION_DIRECTORY": folder.path]

        try "[[source]]\nname = \"x\"\ntype = \"bogus\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try checks.map { try ChildProcess.run($0[0], Array($0.dropFirst()), environment: environment) }
        #expect(refused.contains { $0.status != 0 && $0.stderr.contains("\(path):3: source[1].type: ") },
                "\(refused.map(\.stderr))")

        try "[[source]]\nname = \"load\"\ntype = \"command\"\ncommand = \"true\"\ninterval = \"1min\"\ntemplate = \"{output}\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        for check in checks {
            let passed = try ChildProcess.run(check[0], Array(check.dropFirst()), environment: environment)
            #expect(passed.status == 0, "\(check): \(passed.stderr)")
        }
    }
}
