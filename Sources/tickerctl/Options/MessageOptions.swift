import ArgumentParser
import DBus
import TickerHost
import TickerModel

/// A message's entrance or animation effect, as `--effect` takes it.
enum EffectArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Jumping dots on a trailing `...`.
    case dots
    /// The text types itself in.
    case reveal
    /// No effect (`update --effect none` removes one; running dots finish their wave first).
    case none
}

/// The options of `post` and `update`: when and how a message is shown (`post --id` names the
/// message; `update` takes its id as an argument).
struct MessageOptions: ParsableArguments {
    /// Tape order.
    @Option(parsing: .unconditional, help: "Higher priorities come first on the tape (default 0).")
    var priority: Int32?

    /// Interrupt at once.
    @Flag(inversion: .prefixedNo, help: "Show at once instead of joining at the next seam.")
    var urgent: Bool?

    /// Shown for this long.
    @Option(help: ArgumentHelp("Remove the message after this long (e.g. 10min).", valueName: "SPAN"))
    var ttl: String?

    /// Shown from this instant.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Show from this time ('2025-06-01 09:00', '+5min', '-5min', '@SECONDS').", valueName: "TIME"))
    var start: String?

    /// Shown until this instant.
    @Option(parsing: .unconditional, help: ArgumentHelp("Show until this time.", valueName: "TIME"))
    var end: String?

    /// A recurring window.
    @Option(help: ArgumentHelp(
        "Show at each elapse of this systemd calendar expression (with --duration).", valueName: "EXPR"))
    var calendar: String?

    /// The recurring window's length.
    @Option(help: ArgumentHelp("How long each --calendar window lasts.", valueName: "SPAN"))
    var duration: String?

    /// The effect.
    @Option(help: "An effect: dots (the text must end in '...'), reveal, or none (update: remove it).")
    var effect: EffectArgument?

    /// How long the reveal takes.
    @Option(help: ArgumentHelp("How long the reveal effect takes.", valueName: "SPAN"))
    var reveal: String?

    /// What a click opens.
    @Option(help: ArgumentHelp("What a click on it opens: an absolute URI (update: '' removes it).", valueName: "URI"))
    var link: String?

    func validate() throws {
        if (calendar == nil) != (duration == nil) {
            throw ValidationError("--calendar and --duration go together: give both or neither.")
        }
        if ttl != nil && end != nil { throw ValidationError("Give --ttl or --end, not both.") }
    }

    /// The options as the `a{sv}` the daemon's `Post` and `Update` take.
    func dictionary(now: Instant, zones: any TimeZoneLookup) throws(UsageError) -> [String: DBusValue] {
        var options: [String: DBusValue] = [:]
        if let priority { options["priority"] = .int32(priority) }
        if let urgent { options["urgent"] = .bool(urgent) }
        if let ttl { options["ttl"] = .int64(try TimeArgument.span(ttl, option: "ttl")) }
        if let start {
            options["start"] = .int64(try TimeArgument.instant(start, option: "start", now: now, zones: zones))
        }
        if let end { options["end"] = .int64(try TimeArgument.instant(end, option: "end", now: now, zones: zones)) }
        if let calendar { options["calendar"] = .string(calendar) }
        if let duration { options["duration"] = .int64(try TimeArgument.span(duration, option: "duration")) }
        if let effect { options["effect"] = .string(effect.rawValue) }
        if let reveal { options["reveal"] = .int64(try TimeArgument.span(reveal, option: "reveal")) }
        if let link { options["link"] = .string(link) }
        return options
    }
}
