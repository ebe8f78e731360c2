/// The names of tickerd's D-Bus API, version 1 (docs/DESIGN.md §3), written once: the daemon,
/// tickerctl, the tests and the benchmark harness all take them from here.
public enum TickerBus {
    /// The daemon's well-known bus name.
    public static let name = "io.github.tickerd.Ticker1"
    /// The manager object's path.
    public static let managerPath = "/io/github/tickerd/Ticker1"
    /// The read-only manager interface (`Version`, `Channels`, message signals).
    public static let managerInterface = "io.github.tickerd.Ticker1.Manager"
    /// The interface of every write (`Post`, `Remove`, `Configure`, …).
    public static let controlInterface = "io.github.tickerd.Ticker1.Control"
    /// The read-only interface of each channel object (`Text`, `Timeline`, `Frame`, …).
    public static let channelInterface = "io.github.tickerd.Ticker1.Channel"
    /// The prefix of every error name of the daemon's own.
    public static let errorPrefix = "io.github.tickerd.Ticker1.Error."
    /// The channel that always exists.
    public static let mainChannel = "main"

    /// The object path of channel `name`; a valid channel name (``isValidChannelName(_:)``) is a
    /// valid path element, so the result is a valid object path exactly when `name` is valid.
    public static func channelPath(_ name: String) -> String {
        managerPath + "/channel/" + name
    }

    /// The widest frame the daemon draws (`Render`, `Subscribe`, `Columns`), in cells; frames are
    /// 1 to this many cells wide.
    public static let maximumColumns = 4096

    /// The channel-name rule in words, for error messages.
    public static let channelNameRule = "1 to 64 of A-Z, a-z, 0-9 and _"

    /// Whether `name` is a valid channel name: `[A-Za-z0-9_]{1,64}`.
    public static func isValidChannelName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
    }

    /// The daemon's errors; each one's D-Bus name is ``errorPrefix`` followed by its raw value.
    public enum Error: String, Sendable, CaseIterable {
        /// A text the daemon refuses (control characters, bad markup, …).
        case invalidText = "InvalidText"
        /// An option of unknown name, wrong type or out of range.
        case invalidOption = "InvalidOption"
        /// A channel name outside the rule.
        case invalidChannel = "InvalidChannel"
        /// No channel of that name.
        case noSuchChannel = "NoSuchChannel"
        /// No message of that id.
        case noSuchMessage = "NoSuchMessage"
        /// A calendar expression that cannot be parsed.
        case invalidCalendar = "InvalidCalendar"
        /// A limit (text length, messages, channels, subscribers) would be passed.
        case limitExceeded = "LimitExceeded"
        /// The change could not be stored, so it was not made.
        case storageFailed = "StorageFailed"
        /// The configuration file is bad; the old configuration stays in force.
        case invalidConfig = "InvalidConfig"
        /// The channel is phase-locked (`phase` `wall-clock`): its motion follows the wall clock
        /// on every screen, so it cannot be paused on one.
        case phaseLocked = "PhaseLocked"

        /// The full D-Bus error name, e.g. `io.github.tickerd.Ticker1.Error.InvalidText`.
        public var name: String { TickerBus.errorPrefix + rawValue }
    }
}
