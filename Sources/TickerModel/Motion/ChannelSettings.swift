/// How a channel's text moves (DESIGN §4 "Modes"); the raw values are the D-Bus names (`mode s`).
public enum Mode: String, Sendable, Hashable, CaseIterable {
    /// A seamless endless loop.
    case continuous
    /// Hold `delay` at home, move one tape width with `easing`, repeat.
    case scroll
    /// Move the overflow back and forth, holding `delay` at each end.
    case bounce
    /// No motion; text that does not fit is cut with `…`.
    case `static`
    /// Reduced motion: word-wrapped pages, each held for its reading time.
    case pages
}

/// Which way the text moves (`direction s`).
public enum Direction: String, Sendable, Hashable, CaseIterable {
    /// Text moves to the left (the stream position grows); new text enters at the right edge.
    case left
    /// Text moves to the right (the stream position shrinks); new text enters at the left edge.
    case right

    /// +1 for left, −1 for right: the sign of the stream position's motion.
    var sign: Double { self == .left ? 1 : -1 }
}

/// Where text that fits is placed in the window (`align s`).
public enum Align: String, Sendable, Hashable, CaseIterable {
    /// Flush left, padded on the right.
    case left
    /// Centred; an odd spare cell goes to the right.
    case center
    /// Flush right, padded on the left.
    case right
}

/// A channel's speed: a rate, or the duration of one cycle (one tape width).
public enum Speed: Sendable, Hashable {
    /// Cells per second (> 0).
    case cellsPerSecond(Double)
    /// One tape width in this many microseconds (> 0); the rate follows the tape's width.
    case cycleDuration(Int64)

    /// The rate in cells per second for a tape `width` cells wide (at least a tiny positive rate).
    /// A cycle never moves faster than ``ChannelSettings/maximumRate``: a tape too wide for its
    /// cycle at that rate moves at the rate, and its cycle takes longer.
    public func cellsPerSecond(forWidth width: Int) -> Double {
        switch self {
        case let .cellsPerSecond(rate):
            return rate
        case let .cycleDuration(duration):
            let rate = Double(max(width, 1)) * Double(microsecondsPerSecond) / Double(duration)
            return min(rate, ChannelSettings.maximumRate)
        }
    }
}

/// Why channel settings were refused.
public struct SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A message a person can act on.
    public let description: String

    /// Creates an error with a message.
    public init(_ description: String) {
        self.description = description
    }
}

/// A channel's marquee settings (DESIGN §3 `Configure`).
public struct ChannelSettings: Sendable, Hashable {
    /// Motion mode (default continuous).
    public var mode: Mode
    /// Speed (default 8 cells per second).
    public var speed: Speed
    /// Hold time; nil means the mode's default (continuous 0, scroll and bounce 2 s). In continuous
    /// mode it is a start delay; in scroll and bounce it is held at every stop.
    public var delay: Int64?
    /// Easing of scroll and bounce moves (default linear).
    public var easing: Easing
    /// Cycles before holding at home; 0 repeats for ever.
    public var loops: UInt32
    /// Direction of motion (default left).
    public var direction: Direction
    /// Placement of text that fits (default left).
    public var align: Align
    /// Text between two messages (default `"  •  "`).
    public var separator: String
    /// Text after the last message, before the tape repeats; nil means the separator.
    public var gap: String?
    /// What the motion is anchored to (default local); ``Phase/wallClock`` needs `loops` 0.
    public var phase: Phase

    /// The default separator, `"  •  "`.
    public static let defaultSeparator = "  •  "
    /// The default speed, 8 cells per second.
    public static let defaultSpeed = Speed.cellsPerSecond(8)
    /// The highest accepted rate, in cells per second.
    public static let maximumRate = 10_000.0
    /// The shortest accepted cycle, in µs: one cell at ``maximumRate`` (a shorter cycle moves
    /// even a one-cell tape faster than the rate allows).
    public static let minimumCycle = Int64((Double(microsecondsPerSecond) / maximumRate).rounded(.up))
    /// The longest `delay`: one year in µs.
    public static let maximumDelay: Int64 = 365 * 86_400 * 1_000_000

    /// Creates settings; every parameter has the documented default.
    public init(
        mode: Mode = .continuous,
        speed: Speed = ChannelSettings.defaultSpeed,
        delay: Int64? = nil,
        easing: Easing = .linear,
        loops: UInt32 = 0,
        direction: Direction = .left,
        align: Align = .left,
        separator: String = ChannelSettings.defaultSeparator,
        gap: String? = nil,
        phase: Phase = .local
    ) {
        self.mode = mode
        self.speed = speed
        self.delay = delay
        self.easing = easing
        self.loops = loops
        self.direction = direction
        self.align = align
        self.separator = separator
        self.gap = gap
        self.phase = phase
    }

    /// The hold time in effect: ``delay`` or the mode's default.
    public var effectiveDelay: Int64 {
        if let delay { return delay }
        switch mode {
        case .scroll, .bounce: return 2 * microsecondsPerSecond
        case .continuous, .static, .pages: return 0
        }
    }

    /// True when these settings differ from `old` in ``speed``, ``delay``, ``align``,
    /// ``separator`` or ``gap`` alone: the same motion, so it can go on from where it is — at
    /// another speed or with another hold (``Timeline/retimed(to:at:)``), or with a tape whose
    /// messages are joined otherwise, which comes in like any content change.
    public func keepsMotion(of old: ChannelSettings) -> Bool {
        var same = old
        same.speed = speed
        same.delay = delay
        same.align = align
        same.separator = separator
        same.gap = gap
        return same == self
    }

    /// The gap in effect: ``gap`` or the separator.
    public var effectiveGap: String { gap ?? separator }

    /// Checks ranges and sanitises the separator and gap; throws a message naming the bad setting.
    public func validated(limits: Limits = .standard) throws(SettingsError) -> ChannelSettings {
        var copy = self
        switch speed {
        case let .cellsPerSecond(rate):
            guard rate.isFinite, rate > 0, rate <= ChannelSettings.maximumRate else {
                throw SettingsError("speed must be above 0 and at most \(Int(ChannelSettings.maximumRate)) cells per second, not \(rate)")
            }
        case let .cycleDuration(duration):
            guard duration >= ChannelSettings.minimumCycle else {
                throw SettingsError(
                    "cycle must be at least \(ChannelSettings.minimumCycle) microseconds (one cell at the most "
                        + "\(Int(ChannelSettings.maximumRate)) cells per second), not \(duration)")
            }
        }
        if let delay, delay < 0 {
            throw SettingsError("delay must not be negative, not \(delay)")
        }
        // The motions add and double delays in µs; a year keeps every sum far inside Int64.
        if let delay, delay > ChannelSettings.maximumDelay {
            throw SettingsError("delay must be at most a year (\(ChannelSettings.maximumDelay) µs), not \(delay)")
        }
        if phase == .wallClock, loops > 0 {
            throw SettingsError(
                "phase wall-clock repeats for ever: loops must be 0, not \(loops) (a count from the epoch means nothing)")
        }
        do {
            copy.separator = try TextSanitizer.sanitize(separator, limits: limits)
        } catch {
            throw SettingsError("separator: \(error)")
        }
        do {
            copy.gap = try gap.map { (text: String) throws(TextError) -> String in
                try TextSanitizer.sanitize(text, limits: limits)
            }
        } catch {
            throw SettingsError("gap: \(error)")
        }
        return copy
    }
}
