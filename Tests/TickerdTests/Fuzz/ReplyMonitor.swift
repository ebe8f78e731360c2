import Foundation
import TestSupport

/// `dbus-monitor --profile` watching every reply and error sent to one connection: an independent
/// witness that each call got exactly one answer (libdbus on the caller's side would silently
/// drop a second reply to the same serial).
final class ReplyMonitor {
    /// One reply as the monitor saw it.
    struct Reply: Equatable {
        /// `mr` (method return) or `err`.
        let kind: String
        /// The sender's unique name.
        let sender: String
        /// The serial of the call it answers.
        let replySerial: UInt32
    }

    private let process: ChildProcess

    /// Starts monitoring replies to `destination` on the bus at `address`.
    init(address: String, destination: String) throws {
        process = try ChildProcess("dbus-monitor", [
            "--address", address, "--profile",
            "type='method_return',destination='\(destination)'", "type='error',destination='\(destination)'",
        ])
    }

    deinit {
        process.kill(SIGTERM)
        _ = try? process.wait(timeout: .seconds(10))
    }

    /// Every reply seen so far.
    var replies: [Reply] { Self.parse(process.standardOutput) }

    /// Waits until the monitor has printed a reply to `serial` (true) or `timeout` passes.
    func waitForReply(to serial: UInt32, timeout: Duration = .seconds(10)) -> Bool {
        process.waitForOutput(timeout: timeout) { output in
            Self.parse(output).contains { $0.replySerial == serial }
        }
    }

    /// The reply lines of `--profile` output: `mr|err <time> <serial> <sender> <destination> <reply serial>`.
    static func parse(_ output: String) -> [Reply] {
        output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 6, fields[0] == "mr" || fields[0] == "err",
                  let serial = UInt32(fields[5].trimmingCharacters(in: .whitespaces)) else { return nil }
            return Reply(kind: String(fields[0]), sender: String(fields[3]), replySerial: serial)
        }
    }
}
