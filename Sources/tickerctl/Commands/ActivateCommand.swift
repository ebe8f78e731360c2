import ArgumentParser
import DBus
import Glibc

/// `tickerctl activate`: a click on the ticker. Tells the daemon (`Activate`) which message is
/// under a column of the frame meant for `--at` (default: now) — its `Activated` signal lets the
/// message's source act on it (a notification's default action) — then opens the message's link
/// with `xdg-open`; a link that cannot be opened is an error after the click was announced.
struct ActivateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Open the link of the message under a column (xdg-open) and activate it."
    )

    @OptionGroup var connection: BusOptions

    @OptionGroup var frame: FrameOptions

    /// The column clicked.
    @Option(help: "The column clicked, from 0 (default: the middle).")
    var column: UInt32?

    /// Print instead of opening.
    @Flag(help: "Print the message id and link instead of opening the link.")
    var print = false

    func run() throws {
        try FailureReporting.run {
            let instant = try frame.instant()
            let client = try DaemonClient(connection.bus)
            let path = try client.channelPath(frame.channel)
            let frameWidth = max(1, try frame.width(client, path: path))
            let reply = try client.call(
                "MessageAt", interface: TickerAPI.channelInterface, path: path,
                arguments: [.uint32(frameWidth), .uint32(column ?? frameWidth / 2), .int64(instant)])
            guard reply.count == 2, let id = reply[0].stringValue, let link = reply[1].stringValue else {
                throw ClientFailure.unexpectedReply("MessageAt answered \(reply.map(\.type.signature))")
            }
            guard !id.isEmpty else { throw ClientFailure.usage(UsageError("no message under column \(column ?? frameWidth / 2)")) }
            if print {
                Swift.print(link.isEmpty ? id : "\(id) \(link)")
            }
            // The click is announced first: the message's source hears it even when no program
            // opens links here.
            _ = try client.call("Activate", interface: TickerAPI.channelInterface, path: path, arguments: [.string(id)])
            if !print, !link.isEmpty {
                try Self.open(link)
            }
        }
    }

    /// Starts `xdg-open link` and waits for it (it hands the link over and exits).
    static func open(_ link: String) throws(ClientFailure) {
        var pid: pid_t = 0
        let arguments = ["xdg-open", link]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let result = posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ)
        guard result == 0 else {
            throw .usage(UsageError("cannot run xdg-open (install xdg-utils): \(String(cString: strerror(result)))"))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else { throw .usage(UsageError("xdg-open \(link) failed (wait status \(status))")) }
    }
}
