import ArgumentParser
import DBus
import TickerModel

/// The options of `set`: how a counter moves to its new value and how it is written.
struct ValueOptions: ParsableArguments {
    /// How long the count takes.
    @Option(help: ArgumentHelp("Count to the value over this long (default: at once).", valueName: "SPAN"))
    var duration: String?

    /// The easing of the count.
    @Option(help: ArgumentHelp("Easing of the count.", valueName: "NAME"), completion: .list(Easing.acceptedNames))
    var easing: String?

    /// Where the count starts.
    @Option(parsing: .unconditional, help: "Count from this value instead of the current one.")
    var from: Double?

    /// Digits after the decimal point.
    @Option(help: "Digits after the decimal point.")
    var decimals: UInt32?

    /// Thousands separators.
    @Flag(inversion: .prefixedNo, help: "Group thousands.")
    var grouping: Bool?

    /// Text before the number.
    @Option(parsing: .unconditional, help: "Text before the number.")
    var prefix: String?

    /// Text after the number.
    @Option(parsing: .unconditional, help: "Text after the number.")
    var suffix: String?

    func validate() throws {
        if let easing, Easing(name: easing) == nil {
            throw ValidationError(
                "--easing '\(easing)' is not one of: \(Easing.acceptedNames.joined(separator: ", ")).")
        }
        if let from, !from.isFinite { throw ValidationError("--from must be a finite number.") }
    }

    /// The options as the `a{sv}` of `Control.SetValue`.
    func dictionary() throws(UsageError) -> [String: DBusValue] {
        var options: [String: DBusValue] = [:]
        if let duration { options["duration"] = .int64(try TimeArgument.span(duration, option: "duration")) }
        if let easing { options["easing"] = .string(easing) }
        if let from { options["from"] = .double(from) }
        if let decimals { options["decimals"] = .uint32(decimals) }
        if let grouping { options["grouping"] = .bool(grouping) }
        if let prefix { options["prefix"] = .string(prefix) }
        if let suffix { options["suffix"] = .string(suffix) }
        return options
    }
}
