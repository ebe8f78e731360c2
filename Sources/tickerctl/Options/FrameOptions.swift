import ArgumentParser
import DBus
import TickerHost
import TickerNames

/// The options that pick one frame of a channel, shared by `render` and `activate`: which
/// channel, how wide, and at which instant.
///
/// Guarantees: both commands read these options the same way, so a click (`activate --at T`)
/// asks about exactly the frame `render --at T` prints for the same channel and width.
struct FrameOptions: ParsableArguments {
    /// The channel.
    @Option(help: "The channel.", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    /// Width in cells.
    @Option(help: "The frame's width in cells (default: the channel's Columns).")
    var columns: UInt32?

    /// When.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The instant the frame is meant for ('now', '+5s', '-5s', '2025-06-01 09:00', '@SECONDS'; default: now), "
            + "with the messages active now (windows that open or close before it are not foreseen).",
        valueName: "TIME"))
    var at: String?

    func validate() throws {
        if let columns, columns == 0 || columns > TickerBus.maximumColumns {
            throw ValidationError("--columns must be 1 to \(TickerBus.maximumColumns).")
        }
    }

    /// The instant for the daemon's `Render` and `MessageAt`: microseconds since the Unix epoch,
    /// or 0 ("now" as the daemon sees it) when `--at` is not given.
    func instant() throws(UsageError) -> Int64 {
        guard let at else { return 0 }
        return try TimeArgument.instant(at, option: "at", now: WallClock.now(), zones: ZoneInfoLoader())
    }

    /// The width asked for, else the channel's `Columns` at `path`, else 80.
    func width(_ client: DaemonClient, path: ObjectPath) throws(ClientFailure) -> UInt32 {
        if let columns { return columns }
        let reply = try client.call(
            "Get", interface: TickerAPI.propertiesInterface, path: path,
            arguments: [.string(TickerAPI.channelInterface), .string("Columns")])
        return reply.first?.unwrappingVariant.uint32Value ?? 80
    }
}
