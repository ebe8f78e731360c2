import ArgumentParser
import Glibc
import TickerHost
import TickerModel

/// `tickerctl calendar`: evaluates systemd calendar expressions and prints what
/// `systemd-analyze calendar` prints, line for line.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Normalise calendar expressions and show when they elapse next.",
        discussion: """
            Prints the same lines as `systemd-analyze calendar`. Expressions follow systemd.time(7); \
            the local zone comes from TZ, then /etc/localtime.
            """
    )

    /// Accepted like every command's (`tickerctl --bus system calendar ...` works); the calendar is
    /// computed here, without the bus.
    @OptionGroup var connection: BusOptions

    @Option(help: "How many elapses to show for each expression.")
    var iterations: UInt = 1

    @Option(name: .customLong("base-time"), parsing: .unconditional,
            help: "Start from this time instead of now: 'YYYY-MM-DD HH:MM:SS [ZONE]', '@SECONDS', 'today', '+SPAN'…")
    var baseTime: String?

    @Argument(help: "Calendar expressions, e.g. 'Mon..Fri *-*-* 09:00' or 'daily Europe/Berlin'.")
    var expressions: [String] = []

    func validate() throws {
        if expressions.isEmpty { throw ValidationError("Give at least one calendar expression.") }
    }

    func run() throws {
        let zones = ZoneInfoLoader()
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let now = Int64(clock.tv_sec) * Microseconds.perSecond + Int64(clock.tv_nsec) / 1000
        var base = now
        if let baseTime {
            do {
                base = try TimeArgument.instant(baseTime, option: "base-time", now: now, zones: zones)
            } catch {
                throw ValidationError(error.description)
            }
        }
        let output = CalendarReport.render(expressions: expressions, zones: zones, base: base,
                                           iterations: Int(iterations), now: now)
        StandardOutput().write(output.standardOutput)
        for message in output.errors {
            StandardOutput(fd: STDERR_FILENO).write(message + "\n")
        }
        if !output.succeeded { throw ExitCode.failure }
    }
}
