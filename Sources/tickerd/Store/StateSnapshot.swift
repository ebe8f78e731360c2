import TickerModel

/// Everything that survives a restart, as written to `state.json`: channels (settings, timelines,
/// what is on their tapes) and messages. Subscriptions are not kept: their connections end with
/// the process.
struct StateSnapshot: Codable, Sendable, Equatable {
    /// The format version; a file of a newer version is kept aside, never misread.
    var version: Int = StateSnapshot.currentVersion
    /// The next serial for generated message ids.
    var nextSerial: UInt64
    /// The channels.
    var channels: [StoredChannel]
    /// The messages, posted and from the configuration.
    var messages: [MessageRecord]
    /// The last record of the state journal this snapshot already holds (nil: none; records
    /// with a sequence up to this one are skipped when the journal is replayed over it).
    var journalSequence: UInt64?

    /// The version this build writes and reads.
    static let currentVersion = 1
}

/// A channel as stored.
struct StoredChannel: Codable, Sendable, Equatable {
    /// The channel name.
    var name: String
    /// Its settings.
    var settings: StoredSettings
    /// Broadcast/`Frame` columns.
    var columns: UInt32
    /// Broadcast frames per second.
    var frameRate: Double
    /// The timeline's fields (those of its published dictionary).
    var timeline: StoredTimeline
    /// The ids on the tape.
    var activeIDs: [String]
    /// The texts on the tape.
    var activeTexts: [String]
    /// The digest of the configuration section last applied.
    var configDigest: String?
    /// The channel's counters, by name.
    var counters: [String: StoredCounter]?
    /// Running message effects, by message id.
    var effects: [String: StoredEffect]?
}

/// A counter as stored: its count and its format.
struct StoredCounter: Codable, Sendable, Equatable {
    var from: Double
    var to: Double
    var start: Int64
    var duration: Int64
    var easing: String
    var decimals: Int
    var grouping: Bool
    var prefix: String
    var suffix: String

    /// The stored form of `counter`.
    init(_ counter: Counter) {
        from = counter.from
        to = counter.to
        start = counter.start
        duration = counter.duration
        easing = counter.easing.rawValue
        decimals = counter.format.decimals
        grouping = counter.format.grouping
        prefix = counter.format.prefix
        suffix = counter.format.suffix
    }

    /// The counter back, or nil when the stored values are not valid.
    var counter: Counter? {
        guard let easing = Easing(rawValue: easing),
            let format = try? NumberFormat(decimals: decimals, grouping: grouping, prefix: prefix, suffix: suffix)
        else { return nil }
        return try? Counter(from: from, to: to, start: start, duration: duration, easing: easing, format: format)
    }
}

/// A running message effect as stored: its kind and timing.
struct StoredEffect: Codable, Sendable, Equatable {
    var kind: EffectKind
    var start: Int64
    var duration: Int64?
    var stop: Int64?
    /// A reveal's still start and its narrowest viewer (docs/rendering.md §11.4), when it has one.
    var stillStart: Int64?
    var stillColumns: Int?

    /// The stored form of `effect`.
    init(_ effect: MessageEffect) {
        switch effect {
        case let .dots(dots):
            kind = .dots
            start = dots.start
            stop = dots.stop
        case let .reveal(reveal):
            kind = .reveal
            start = reveal.start
            duration = reveal.duration
            stillStart = reveal.still?.start
            stillColumns = reveal.still?.columns
        }
    }

    /// The effect back, or nil when the stored values are not valid.
    var effect: MessageEffect? {
        switch kind {
        case .dots:
            let dots = DotsEffect(start: start)
            return .dots(stop.map { dots.stopping(at: $0) } ?? dots)
        case .reveal:
            var still: RevealEffect.StillStart?
            if let stillStart, let stillColumns { still = RevealEffect.StillStart(start: stillStart, columns: stillColumns) }
            return (try? RevealEffect(start: start, duration: duration ?? 0, still: still)).map { .reveal($0) }
        }
    }
}

/// `ChannelSettings` in a stable, readable form.
struct StoredSettings: Codable, Sendable, Equatable {
    var mode: String
    var speed: Double?
    var cycle: Int64?
    var delay: Int64?
    var easing: String
    var loops: UInt32
    var direction: String
    var align: String
    var separator: String
    var gap: String?
    /// `wall-clock` for a phase-locked channel; absent (older files too) means local.
    var phase: String?

    /// The stored form of `settings`.
    init(_ settings: ChannelSettings) {
        mode = settings.mode.rawValue
        switch settings.speed {
        case let .cellsPerSecond(rate): speed = rate
        case let .cycleDuration(duration): cycle = duration
        }
        delay = settings.delay
        easing = settings.easing.rawValue
        loops = settings.loops
        direction = settings.direction.rawValue
        align = settings.align.rawValue
        separator = settings.separator
        gap = settings.gap
        phase = settings.phase == .local ? nil : settings.phase.rawValue
    }

    /// The settings back, or nil when a name is not known (a corrupt or foreign file).
    var settings: ChannelSettings? {
        guard let mode = Mode(rawValue: mode), let easing = Easing(rawValue: easing),
            let direction = Direction(rawValue: direction), let align = Align(rawValue: align),
            let phase = Phase(rawValue: phase ?? Phase.local.rawValue)
        else { return nil }
        let speed: Speed = cycle.map { .cycleDuration($0) } ?? .cellsPerSecond(speed ?? 8)
        return ChannelSettings(
            mode: mode, speed: speed, delay: delay, easing: easing, loops: loops, direction: direction,
            align: align, separator: separator, gap: gap, phase: phase)
    }
}

/// A `TimelineValue` with its type kept, so a stored timeline reads back exactly.
enum StoredTimelineValue: Codable, Sendable, Equatable {
    case string(String)
    case double(Double)
    case int64(Int64)
    case uint32(UInt32)

    /// The stored form of `value`.
    init(_ value: TimelineValue) {
        switch value {
        case let .string(text): self = .string(text)
        case let .double(number): self = .double(number)
        case let .int64(number): self = .int64(number)
        case let .uint32(number): self = .uint32(number)
        }
    }

    /// The model's value.
    var value: TimelineValue {
        switch self {
        case let .string(text): return .string(text)
        case let .double(number): return .double(number)
        case let .int64(number): return .int64(number)
        case let .uint32(number): return .uint32(number)
        }
    }
}
