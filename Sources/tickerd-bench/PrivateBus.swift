import Foundation

/// A private, session-like `dbus-daemon` with a permissive policy, in its own scratch folder;
/// stopped by PID on ``stop()``.
final class PrivateBus {
    /// The address clients and the daemon connect to.
    let address: String
    /// The bus daemon (for its CPU time).
    let daemon: ChildProcess
    private let directory: ScratchDirectory

    /// Starts `dbus-daemon` and reads its address.
    init() throws {
        directory = try ScratchDirectory(prefix: "tickerd-bench-bus")
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.file("bus"))</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_completed_connections">10000</limit>
          <limit name="max_connections_per_user">10000</limit>
        </busconfig>
        """
        try config.write(toFile: directory.file("bus.conf"), atomically: true, encoding: .utf8)
        let output = Pipe()
        daemon = try ChildProcess(
            "/usr/bin/dbus-daemon",
            ["--config-file=\(directory.file("bus.conf"))", "--nofork", "--nopidfile", "--print-address=1"],
            standardOutput: output)
        guard let line = Self.firstLine(of: output.fileHandleForReading), !line.isEmpty else {
            daemon.stop()
            throw BenchError("dbus-daemon printed no address")
        }
        address = line
    }

    /// Stops the bus daemon and removes its folder.
    func stop() {
        daemon.stop()
        directory.remove()
    }

    private static func firstLine(of handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let chunk = try? handle.read(upToCount: 1), let byte = chunk.first else { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
