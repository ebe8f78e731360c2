import DBus
import TickerModel

/// What `follow` knows of its channel: the properties it needs to compute every frame itself.
struct ChannelSnapshot: Sendable {
    /// The motion (DESIGN.md §3 `Timeline`).
    var timeline: Timeline
    /// Counters and message effects published with the Timeline (docs/rendering.md §12).
    var effects: EffectState = .none
    /// The full text of the active messages (the daemon's `Text`: the newest content, counters
    /// expanded), the text of the tape a pending change brings in.
    var text: String
    /// The channel's configured columns (used when `--columns` is not given).
    var columns: Int
    /// While a change is pending: the full text of the tape it replaces, when known (it was the
    /// newest content before the change arrived).
    private(set) var replacedText: (tape: Tape, text: String)?

    /// A snapshot of known values.
    init(timeline: Timeline, text: String, columns: Int) {
        self.timeline = timeline
        self.text = text
        self.columns = columns
    }

    /// Reads a channel's `GetAll` reply.
    init(properties: [String: DBusValue]) throws(TimelineFieldError) {
        guard let fields = properties["Timeline"]?.vardictValue else {
            throw TimelineFieldError("the channel has no Timeline property")
        }
        timeline = try Timeline(fields: Self.timelineFields(fields))
        effects = try Self.effects(fields)
        text = properties["Text"]?.stringValue ?? ""
        columns = Int(properties["Columns"]?.uint32Value ?? 0)
    }

    /// Applies the changed properties of a `PropertiesChanged` signal.
    mutating func apply(_ changed: [String: DBusValue]) throws(TimelineFieldError) {
        let newestBefore = newestTape
        let textBefore = text
        if let fields = changed["Timeline"]?.vardictValue {
            timeline = try Timeline(fields: Self.timelineFields(fields))
            effects = try Self.effects(fields)
        }
        if let text = changed["Text"]?.stringValue { self.text = text }
        if let columns = changed["Columns"]?.uint32Value { self.columns = Int(columns) }
        // The text of the tape being replaced: the newest text before this change when that tape
        // is the one now leaving, the one already known when a second change replaced the first.
        if timeline.pending == nil {
            replacedText = nil
        } else if timeline.tape == newestBefore {
            replacedText = (timeline.tape, textBefore)
        } else if let known = replacedText, known.tape != timeline.tape {
            replacedText = nil
        }
    }

    /// The tape of the newest content: the pending change's, else the current one.
    var newestTape: Tape { timeline.pending?.tape ?? timeline.tape }

    /// The full text of what a viewer of `columns` cells sees at `t`: the newest text once the
    /// change reached it, the replaced content's text while a change is pending for it (its tape's
    /// content when that text is not known, e.g. when following started during the change).
    func textInView(columns: Int, at t: Instant) -> String {
        guard let pending = timeline.pending else { return text }
        let inView = timeline.tapeInView(columns: columns, at: t)
        if inView == pending.tape { return text }
        if let replacedText, replacedText.tape == inView { return replacedText.text }
        return inView.content
    }

    /// Whether a viewer of `columns` cells sees no content at `t` (no active message, or the
    /// last one's removal has reached it).
    func showsNothing(columns: Int, at t: Instant) -> Bool {
        timeline.tapeInView(columns: columns, at: t).contentWidth == 0
    }

    /// The frame at `t`, effects applied.
    func frame(columns: Int, at t: Instant) -> Frame {
        timeline.frame(columns: columns, at: t, effects: effects)
    }

    /// When the visible frame next changes after `t`, effects included (without counters or
    /// message effects, the motion's next change alone: no frame is painted to find them).
    func nextChange(after t: Instant, columns: Int) -> Instant? {
        if effects.counters.isEmpty && effects.messages.isEmpty {
            return timeline.nextChange(after: t, columns: columns)
        }
        return timeline.nextChange(after: t, columns: columns, effects: effects)
    }

    /// The effect state of a Timeline dictionary (none when it carries no `effects` key).
    static func effects(_ fields: [String: DBusValue]) throws(TimelineFieldError) -> EffectState {
        guard let text = fields[EffectFields.effectsKey]?.unwrappingVariant.stringValue else { return .none }
        return try EffectFields.effects(from: text)
    }

    /// The `a{sv}` as the model's Timeline dictionary; values of other types are left out (the
    /// model then names the key whose value is missing).
    static func timelineFields(_ fields: [String: DBusValue]) -> [String: TimelineValue] {
        var result: [String: TimelineValue] = [:]
        for (key, value) in fields {
            switch value.unwrappingVariant {
            case .string(let text): result[key] = .string(text)
            case .double(let number): result[key] = .double(number)
            case .int64(let number): result[key] = .int64(number)
            case .uint32(let number): result[key] = .uint32(number)
            default: continue
            }
        }
        return result
    }
}

/// Where `follow` stands with the daemon.
enum FollowSource: Sendable {
    /// The daemon (or the bus) is not there.
    case offline
    /// The daemon is there but the channel does not exist (yet).
    case missingChannel
    /// The channel as last read.
    case channel(ChannelSnapshot)
}
