import Foundation
import TestSupport

/// A private `dbus-daemon` set up like Debian's system bus: the default policy of
/// `/usr/share/dbus-1/system.conf` (no name may be owned, no method called, except where a policy
/// file opens a hole; signals and requested replies pass; the bus driver may be called), then
/// `<include>` of the repo's policy file. Its folder is world-readable so other uids reach the
/// socket. Stopped by PID on ``stop()`` or deinit.
final class SystemLikeBus: @unchecked Sendable {
    /// The address to connect to.
    let address: String
    /// The folder of the config and the socket.
    let directory: TemporaryDirectory
    /// The daemon.
    let daemon: ChildProcess

    /// Starts the bus with `policyFile` included.
    init(policyFile: String = Repository.path("dbus-policy/io.github.tickerd.Ticker1.conf")) throws {
        directory = try TemporaryDirectory(prefix: "tickerd-systembus")
        chmod(directory.path, 0o755)
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(directory.file("system_bus_socket"))</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
                <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"
                      send_member="UpdateActivationEnvironment"/>
              </policy>
              <include>\(policyFile)</include>
            </busconfig>
            """
        let configPath = directory.file("system.conf")
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        daemon = try ChildProcess("dbus-daemon", ["--config-file=\(configPath)", "--nofork", "--nopidfile", "--print-address=1"])
        guard daemon.waitForOutput(timeout: .seconds(20), until: { $0.contains("\n") }),
              let line = daemon.standardOutput.split(separator: "\n").first, !line.isEmpty
        else {
            daemon.kill(SIGKILL)
            throw TestSupportError("dbus-daemon printed no address: \(daemon.standardError)")
        }
        address = String(line)
    }

    deinit { stop() }

    /// Stops the daemon (SIGTERM by PID) and waits for it.
    func stop() {
        daemon.kill(SIGTERM)
        _ = try? daemon.wait(timeout: .seconds(10))
    }
}
