import ArgumentParser
import DBus
import Glibc
import TickerNames

/// `tickerctl timeline`: a channel's `Timeline` as one JSON line, optionally once it has changed.
///
/// Pixel clients that have no D-Bus client of their own (a Plasma widget's QML runs commands
/// through the "executable" data engine) long-poll with it: `--after` the digest they hold, the
/// command waits until the channel's state differs, prints it and exits. They compute every frame
/// from the Timeline themselves, so this runs only when the motion changes discontinuously.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print a channel's Timeline as JSON (with --after: once it differs).",
        discussion: """
            Prints {"state", "text", "messages", "timeline", "digest"} on one line: state is online, \
            offline (no daemon) or missing (no such channel); text is the full text (for tooltips); \
            timeline is the Timeline property with its D-Bus keys. With --after DIGEST it first \
            waits until the digest differs from DIGEST (a change, the daemon leaving or coming back) \
            or --timeout passes; while waiting, --columns declares the caller's width as a viewer \
            (Subscribe with fps 0). Exits 0 after printing, 69 when the bus cannot be reached.
            """
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @Option(help: "The channel.", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    /// The digest the caller holds.
    @Option(help: ArgumentHelp("Wait until the state's digest differs from this one.", valueName: "DIGEST"))
    var after: String?

    /// The caller's width, declared while waiting.
    @Option(help: "While waiting, declare this viewer width in cells (0: none).")
    var columns: UInt32 = 0

    /// The longest wait.
    @Option(help: "With --after, print the state anyway after this many seconds.")
    var timeout: Double = 300

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be above 0 and at most 86400.")
        }
        if columns > TickerBus.maximumColumns {
            throw ValidationError("--columns must be at most \(TickerBus.maximumColumns).")
        }
        do {
            _ = try TickerAPI.channelPath(channel)
        } catch {
            throw ValidationError("--channel: \(error)")
        }
    }

    func run() throws {
        try FailureReporting.run {
            let watch = try TimelineWatch(selection: connection.bus, channel: channel)
            var state = watch.read()
            if let after {
                let deadline = Deadline.after(.milliseconds(Int64(timeout * 1000)))
                // Read again after every wake-up, the last one too: when the bus went away the
                // state is "offline", not the one read before it went.
                while state.digest == after {
                    let woken = watch.waitForChange(until: deadline, declaring: columns)
                    state = watch.read()
                    if !woken { break }
                }
            }
            print(state.json.text)
        }
    }
}
