import Foundation
import Testing
import TestSupport

/// `dbus-policy/services/io.github.tickerd.Ticker1.service` in a private session bus's
/// `<servicedir>`: the first call to the name starts tickerd (``TickerdUnderTest``).
@Suite struct ActivationTests {
    @Test func firstCallToTheNameStartsTickerd() throws {
        let bus = try PrivateBus()
        let packaged = try Repository.read("dbus-policy/services/io.github.tickerd.Ticker1.service")
        #expect(packaged.contains("\nExec=/usr/bin/tickerd "))
        try packaged.replacingOccurrences(of: "/usr/bin/tickerd", with: TickerdUnderTest.executable)
            .write(toFile: bus.serviceDirectory + "/io.github.tickerd.Ticker1.service", atomically: true, encoding: .utf8)

        // The activated daemon keeps its config and state in a scratch folder, not in root's home.
        let home = try TemporaryDirectory(prefix: "tickerd-home")
        let environment = try ChildProcess.run("gdbus", [
            "call", "--address", bus.address, "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.UpdateActivationEnvironment",
            "{'XDG_CONFIG_HOME': '\(home.file("config"))', 'XDG_STATE_HOME': '\(home.file("state"))', 'HOME': '\(home.path)'}",
        ])
        #expect(environment.status == 0, "\(environment.stderr)")

        let before = try ChildProcess.run("busctl", ["--address=\(bus.address)", "status", BusPeers.name])
        #expect(before.status != 0, "the name had an owner before the first call")

        let version = try ChildProcess.run("busctl", [
            "--address=\(bus.address)", "get-property", BusPeers.name, BusPeers.managerPath,
            "io.github.tickerd.Ticker1.Manager", "Version",
        ], timeout: .seconds(60))
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("s \""))

        // The owner is the program the activation file names; end it by its PID.
        let pidReply = try ChildProcess.run("busctl", [
            "--address=\(bus.address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "s", BusPeers.name,
        ])
        let pid = try #require(pid_t(pidReply.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        let commandLine = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(commandLine.contains(TickerdUnderTest.executable))
        #expect(commandLine.contains("--bus\u{0}session"))
        kill(pid, SIGTERM)
        bus.stop()
    }
}
