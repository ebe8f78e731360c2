import DBus
import TickerModel

/// The D-Bus forms of the model's values: Timeline `a{sv}`, frames `(s d a{sv})`, message lists.
enum BusValues {
    /// Writes the `Timeline` property's entries: the timeline's fields plus, when the channel has
    /// any counters or message effects, those and the tapes' layouts (docs/rendering.md §12).
    /// Without effects a layout changes no frame, so it is left out: on a channel of 1000
    /// messages it was a third of every change's PropertiesChanged.
    static func writeTimeline(_ channel: ChannelState, to writer: inout VardictWriter) throws {
        // The entries in ascending key order, as `vardict` sorts them; the effects entry goes in
        // before the first key that sorts after it.
        let hasEffects = channel.effects != .none
        var effects = hasEffects ? EffectFields.encode(channel.effects) : nil
        try channel.timeline.forEachField(layouts: hasEffects) { key, field in
            if let encoded = effects, key > EffectFields.effectsKey {
                try writer.add(EffectFields.effectsKey, .string(encoded))
                effects = nil
            }
            try writer.add(key, value(field))
        }
        if let encoded = effects { try writer.add(EffectFields.effectsKey, .string(encoded)) }
    }

    /// One `TimelineValue` with its D-Bus type.
    static func value(_ value: TimelineValue) -> DBusValue {
        switch value {
        case let .string(text): return .string(text)
        case let .double(number): return .double(number)
        case let .int64(number): return .int64(number)
        case let .uint32(number): return .uint32(number)
        }
    }

    /// A frame as the three values of `Render`'s reply and of the `Frame` signal.
    static func frameArguments(_ frame: Frame) -> [DBusValue] {
        [.string(frame.text), .double(frame.offset), extras(frame.extras)]
    }

    /// A frame as the `Frame` property's struct `(sda{sv})`.
    static func frameStruct(_ frame: Frame) -> DBusValue {
        .structure(frameArguments(frame))
    }

    /// The extras for pixel clients.
    static func extras(_ extras: FrameExtras) -> DBusValue {
        var fields: [String: DBusValue] = [FrameExtras.cycleKey: .double(extras.cycle)]
        if let dots = extras.dots { fields[FrameExtras.dotsKey] = .array(.double, dots.map(DBusValue.double)) }
        if let reveal = extras.reveal { fields[FrameExtras.revealKey] = .double(reveal) }
        if let words = extras.revealWords {
            fields[FrameExtras.revealWordsKey] = .array(.double, words.map(DBusValue.double))
        }
        return .vardict(fields)
    }

    /// One entry of `List`'s `a(sa{sv})`.
    static func listEntry(_ record: MessageRecord, active: Bool) -> DBusValue {
        var fields: [String: DBusValue] = [
            "channel": .string(record.channel),
            "text": .string(record.text),
            "priority": .int32(record.priority),
            "urgent": .bool(record.urgent),
            "active": .bool(active),
            "posted": .int64(record.postedAt),
            "origin": .string(record.origin.rawValue),
        ]
        switch record.window {
        case .always: break
        case let .absolute(start, end):
            if let start { fields["start"] = .int64(start) }
            if let end { fields["end"] = .int64(end) }
        case let .timeToLive(microseconds):
            fields["ttl"] = .int64(microseconds)
            // Saturating, as the schedule does: a TTL near Int64.max ends "never", not in the past.
            let (end, overflow) = record.postedAt.addingReportingOverflow(microseconds)
            fields["end"] = .int64(overflow ? .max : end)
        case let .recurring(calendar, duration):
            fields["calendar"] = .string(calendar)
            fields["duration"] = .int64(duration)
        }
        if let effect = record.effect { fields["effect"] = .string(effect.rawValue) }
        if let reveal = record.reveal { fields["reveal"] = .int64(reveal) }
        if let link = record.link { fields["link"] = .string(link) }
        return .structure([.string(record.id), .vardict(fields)])
    }

    /// The type of `List`'s reply.
    static let listType = DBusType.array(.structure([.string, .vardict]))
}
