import ArgumentParser
import DBus
import Glibc
import TickerNames

/// `tickerctl follow`: the panel feed.
struct FollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Print a channel's visible text whenever it changes (for panels).",
        discussion: """
            Frames are computed here from the channel's Timeline, so following costs no bus traffic \
            per frame; a line is printed only when the visible text changes. When the daemon goes \
            away the text goes on for --grace (a restart or an upgrade does not blank the panel), \
            then the line turns empty (state/class "offline"); following resumes when it is back. \
            SIGTERM, SIGINT and a closed pipe end it cleanly.
            Formats: plain (a terminal), json, waybar (return-type json), polybar (tail = true), \
            i3blocks (interval=persist). See contrib/ for ready configurations.
            """
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @Option(help: "The channel to follow.", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    /// Width in cells.
    @Option(help: "Width in terminal cells (default: the channel's Columns).")
    var columns: UInt32?

    /// The line format.
    @Option(help: ArgumentHelp("Line format.", valueName: "plain|json|waybar|polybar|i3blocks"))
    var format: FollowFormat = .plain

    /// Most lines a second.
    @Option(help: "At most this many lines a second.")
    var fps: Double = 30

    /// How long the text goes on after the daemon's name goes away.
    @Option(help: ArgumentHelp(
        "How long the text goes on after the daemon goes away, before the line turns empty (0: at once).",
        valueName: "SPAN"))
    var grace: String = "2s"

    func validate() throws {
        guard fps.isFinite, fps > 0, fps <= 240 else { throw ValidationError("--fps must be above 0 and at most 240.") }
        if let columns, columns == 0 || columns > TickerBus.maximumColumns {
            throw ValidationError("--columns must be 1 to \(TickerBus.maximumColumns).")
        }
        do {
            _ = try TickerAPI.channelPath(channel)
        } catch {
            throw ValidationError("--channel: \(error)")
        }
        _ = try graceMicroseconds()
    }

    /// `--grace` in microseconds.
    func graceMicroseconds() throws -> Int64 {
        do {
            return try TimeArgument.span(grace, option: "grace")
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        // A closed pipe is an EPIPE from write(2), handled as the end; termination signals go to
        // the loop's signalfd. Blocked before the loop (or libdbus) starts any thread. The loop's
        // own handlers hold it weakly: a strong capture is a cycle that LeakSanitizer reports.
        signal(SIGPIPE, SIG_IGN)
        try EventLoop.blockSignals([SIGTERM, SIGINT, SIGHUP])
        let loop = try EventLoop()
        let output = StandardOutput()
        let planner = FollowPlanner(
            channel: channel, columnsOverride: columns.map(Int.init),
            minimumInterval: Int64((1_000_000 / fps).rounded()))
        let follower = try Follower(
            loop: loop, selection: connection.bus, channel: channel, planner: planner,
            grace: .microseconds(try graceMicroseconds()),
            formatter: format.formatter(terminal: output.isTerminal), output: output,
            onOutputClosed: { [weak loop] in loop?.stop() })
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            try loop.onSignal(signal) { [weak loop] _ in loop?.stop() }
        }
        follower.start()
        loop.run()
        follower.stop()
    }
}
