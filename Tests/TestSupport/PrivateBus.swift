import Foundation

/// A private, session-like `dbus-daemon` for one test: its config (with a `<servicedir>`) lives
/// in a temporary directory; it is stopped by PID on ``stop()`` or deinit.
public final class PrivateBus: @unchecked Sendable {
    /// The bus address to connect to (`unix:path=…`).
    public let address: String
    /// The temporary directory holding the config, the socket and `services/`.
    public let directory: TemporaryDirectory
    /// The activation directory (`<servicedir>`), for `.service` files of activation tests.
    public var serviceDirectory: String { directory.file("services") }
    /// The daemon process.
    public let daemon: ChildProcess

    /// Starts the bus. `extraConfig` is inserted into `<busconfig>` after the permissive default
    /// policy (e.g. `<policy context="mandatory"><deny own="…"/></policy>`).
    public init(extraConfig: String = "") throws {
        directory = try TemporaryDirectory(prefix: "tickerd-bus")
        try FileManager.default.createDirectory(atPath: directory.file("services"), withIntermediateDirectories: true)
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.file("bus"))</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(directory.file("services"))</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          \(extraConfig)
        </busconfig>
        """
        let configPath = directory.file("bus.conf")
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let fds = try ChildProcess.makePipe()
        defer { close(fds[0]) }
        let started: ChildProcess
        do {
            started = try ChildProcess(
                "dbus-daemon", ["--config-file=\(configPath)", "--nofork", "--nopidfile", "--print-address=3"],
                extraDescriptors: [3: fds[1]])
        } catch {
            close(fds[1])
            throw error
        }
        close(fds[1])
        daemon = started
        guard let line = PrivateBus.readLine(fd: fds[0], timeout: .seconds(20)), !line.isEmpty else {
            daemon.kill(SIGKILL)
            throw TestSupportError("dbus-daemon printed no address: \(daemon.standardError)")
        }
        address = line
    }

    deinit { stop() }

    /// Makes the bus read its configuration and `.service` files again, returning once it has
    /// (`ReloadConfig` is answered after the reload): a file written into ``serviceDirectory``
    /// after the start is then listed by `ListActivatableNames`, where the bus's own inotify
    /// watch would pick it up at some later turn of its loop.
    public func reloadConfig() throws {
        let reply = try ChildProcess.run("busctl", [
            "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "ReloadConfig",
        ])
        guard reply.status == 0 else { throw TestSupportError("ReloadConfig: \(reply.stderr)") }
    }

    /// Stops the daemon (SIGTERM by PID) and waits for it.
    public func stop() {
        daemon.kill(SIGTERM)
        _ = try? daemon.wait(timeout: .seconds(10))
    }

    /// Reads one line from `fd`, waiting with `poll` until `timeout`.
    private static func readLine(fd: Int32, timeout: Duration) -> String? {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        var bytes: [UInt8] = []
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(remaining * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
