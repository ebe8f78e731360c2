extension Timeline {
    /// Keys of the Timeline dictionary (DESIGN §3, and the additions documented in docs/rendering.md).
    public enum Key {
        /// `s` one cycle: content, separators and gap.
        public static let tape = "tape"
        /// `s` the gap at the end of `tape` (so the content is `tape` without it).
        public static let gap = "gap"
        /// `d` tape width in cells.
        public static let width = "width"
        /// `x` the time origin.
        public static let anchor = "anchor"
        /// `d` stream position at `anchor`.
        public static let position = "position"
        /// `d` cells per second.
        public static let speed = "speed"
        /// `x` cycle duration, present when the speed follows each tape's width.
        public static let cycle = "cycle"
        /// `s` mode name.
        public static let mode = "mode"
        /// `x` hold time.
        public static let delay = "delay"
        /// `s` easing name.
        public static let easing = "easing"
        /// `u` loops, 0 for ever.
        public static let loops = "loops"
        /// `s` `left` or `right`.
        public static let direction = "direction"
        /// `s` `left`, `center` or `right`.
        public static let align = "align"
        /// `s` the pending tape.
        public static let next = "next"
        /// `s` the pending tape's gap.
        public static let nextGap = "nextGap"
        /// `d` the speed after the switch.
        public static let nextSpeed = "nextSpeed"
        /// `d` stream position where `next` takes over.
        public static let switchPosition = "switch"
        /// `d` the cell of `next` at `switch` (where the message the stream continues with starts);
        /// absent means 0.
        public static let nextStart = "nextStart"
        /// `x` the instant the pending change was made (on the timeline's clock): from it on,
        /// viewers for whom both the old and the new content fit show the new one.
        public static let changed = "changed"
        /// `x` the instant the stream froze, present while paused.
        public static let paused = "paused"
        /// `s` `wall-clock` for a phase-locked timeline (docs/rendering.md §13); absent means `local`.
        public static let phase = "phase"
        /// `d` blank cells on the new side of the switch of a phase-locked timeline; absent means 0.
        public static let nextLeadIn = "nextLeadIn"
    }

    /// The Timeline as the D-Bus `a{sv}` dictionary; ``init(fields:)`` reads it back.
    public var fields: [String: TimelineValue] {
        // Room for every key at once (else the optional keys below rehash the table).
        var fields = [String: TimelineValue](minimumCapacity: 25)
        forEachField { key, value in fields[key] = value }
        return fields
    }

    /// Calls `body` with each entry of ``fields`` in ascending key order (the order a sorted
    /// `a{sv}` lists them in), without building the dictionary: publishing and storing a
    /// timeline on every Post hashed its ~20 keys twice (docs/benchmarks.md).
    /// `TimelineFieldsTests` checks the order and that the entries are those of ``fields``.
    /// Without `layouts` the tapes' layouts are left out, and not encoded.
    public func forEachField(layouts: Bool = true, _ body: (String, TimelineValue) throws -> Void) rethrows {
        try body(Key.align, .string(align.rawValue))
        try body(Key.anchor, .int64(anchor))
        if let changedAt = pending?.changedAt { try body(Key.changed, .int64(changedAt)) }
        if let cycleDuration { try body(Key.cycle, .int64(cycleDuration)) }
        try body(Key.delay, .int64(delay))
        try body(Key.direction, .string(direction.rawValue))
        try body(Key.easing, .string(easing.rawValue))
        try body(Key.gap, .string(tape.gap))
        if layouts, let layout = tape.encodedLayout { try body(EffectFields.layoutKey, .string(layout)) }
        try body(Key.loops, .uint32(loops))
        try body(Key.mode, .string(mode.rawValue))
        if let pending {
            try body(Key.next, .string(pending.tape.text))
            try body(Key.nextGap, .string(pending.tape.gap))
            if layouts, let layout = pending.tape.encodedLayout { try body(EffectFields.nextLayoutKey, .string(layout)) }
            if pending.leadIn > 0 { try body(Key.nextLeadIn, .double(Double(pending.leadIn))) }
            try body(Key.nextSpeed, .double(pending.speed))
            try body(Key.nextStart, .double(Double(pending.nextStart)))
        }
        if let pausedAt { try body(Key.paused, .int64(pausedAt)) }
        if phase != .local { try body(Key.phase, .string(phase.rawValue)) }
        try body(Key.position, .double(position))
        try body(Key.speed, .double(speed))
        if let pending { try body(Key.switchPosition, .double(Double(pending.switchPosition))) }
        try body(Key.tape, .string(tape.text))
        try body(Key.width, .double(Double(tape.width)))
    }

    /// Reads a Timeline dictionary (as published in the `Timeline` property). Unknown keys are
    /// ignored, so later versions may add some; missing or ill-typed required keys are errors.
    public init(fields: [String: TimelineValue]) throws(TimelineFieldError) {
        let reader = FieldReader(fields: fields)
        var tape = try reader.tape(text: Key.tape, gap: Key.gap)
        tape.layout = try reader.layout(EffectFields.layoutKey, of: tape)
        let speed = try reader.double(Key.speed)
        guard speed.isFinite, speed > 0 else { throw TimelineFieldError("\(Key.speed) must be above 0, not \(speed)") }
        let position = try reader.double(Key.position)
        guard position.isFinite else { throw TimelineFieldError("\(Key.position) must be finite") }
        let cycle = try reader.optionalInt64(Key.cycle)
        if let cycle, cycle <= 0 { throw TimelineFieldError("\(Key.cycle) must be above 0") }
        var pending: PendingChange?
        if fields[Key.next] != nil {
            var next = try reader.tape(text: Key.next, gap: Key.nextGap)
            next.layout = try reader.layout(EffectFields.nextLayoutKey, of: next)
            let nextSpeed = try reader.double(Key.nextSpeed)
            guard nextSpeed.isFinite, nextSpeed > 0 else { throw TimelineFieldError("\(Key.nextSpeed) must be above 0") }
            let seam = try reader.double(Key.switchPosition)
            guard seam.isFinite, seam.magnitude < 9e15, seam == seam.rounded() else {
                throw TimelineFieldError("\(Key.switchPosition) must be a whole number of cells")
            }
            var nextStart = 0.0
            if fields[Key.nextStart] != nil { nextStart = try reader.double(Key.nextStart) }
            guard nextStart == nextStart.rounded(), nextStart >= 0,
                  nextStart < Double(max(1, next.width)) else {
                throw TimelineFieldError("\(Key.nextStart) must be a whole number of cells within the width of \(Key.next)")
            }
            var leadIn = 0.0
            if fields[Key.nextLeadIn] != nil { leadIn = try reader.double(Key.nextLeadIn) }
            guard leadIn == leadIn.rounded(), leadIn >= 0, leadIn <= Double(next.width) else {
                throw TimelineFieldError("\(Key.nextLeadIn) must be a whole number of cells, at most the width of \(Key.next)")
            }
            pending = PendingChange(
                tape: next, switchPosition: Int(seam), nextStart: Int(nextStart), leadIn: Int(leadIn), speed: nextSpeed,
                changedAt: try reader.optionalInt64(Key.changed))
        }
        let delay = try reader.int64(Key.delay)
        guard delay >= 0 else { throw TimelineFieldError("\(Key.delay) must not be negative") }
        self.init(
            tape: tape, anchor: try reader.int64(Key.anchor), position: position, speed: speed,
            cycleDuration: cycle, mode: try reader.name(Key.mode, as: Mode.self), delay: delay,
            easing: try reader.name(Key.easing, as: Easing.self), loops: try reader.uint32(Key.loops),
            direction: try reader.name(Key.direction, as: Direction.self),
            align: try reader.name(Key.align, as: Align.self), pending: pending,
            pausedAt: try reader.optionalInt64(Key.paused),
            phase: fields[Key.phase] == nil ? .local : try reader.name(Key.phase, as: Phase.self))
    }
}

/// Typed access to a Timeline dictionary with errors that name the key.
struct FieldReader {
    let fields: [String: TimelineValue]

    func value(_ key: String) throws(TimelineFieldError) -> TimelineValue {
        guard let value = fields[key] else { throw TimelineFieldError("missing key \(key)") }
        return value
    }

    func string(_ key: String) throws(TimelineFieldError) -> String {
        guard case let .string(value) = try value(key) else { throw TimelineFieldError("\(key) must be a string (s)") }
        return value
    }

    func double(_ key: String) throws(TimelineFieldError) -> Double {
        guard case let .double(value) = try value(key) else { throw TimelineFieldError("\(key) must be a double (d)") }
        return value
    }

    func int64(_ key: String) throws(TimelineFieldError) -> Int64 {
        guard case let .int64(value) = try value(key) else { throw TimelineFieldError("\(key) must be an int64 (x)") }
        return value
    }

    /// The layout at `key` for `tape`, checked against it (nil when absent): spans in order, not
    /// overlapping, inside the tape's content, and every counter field made of one-cell fill
    /// clusters — so a published or stored layout can never send a frame out of bounds.
    func layout(_ key: String, of tape: Tape) throws(TimelineFieldError) -> TapeLayout? {
        guard fields[key] != nil else { return nil }
        let layout = try EffectFields.layout(from: try string(key))
        let clusters = Array(tape.content)
        var end = 0
        for span in layout.messages {
            guard span.clusters.lowerBound >= end, span.clusters.upperBound <= clusters.count,
                span.cells.upperBound <= tape.contentWidth
            else { throw TimelineFieldError("\(key): message '\(span.key)' lies outside the tape or overlaps") }
            end = span.clusters.upperBound
        }
        end = 0
        for field in layout.fields {
            guard field.clusters.lowerBound >= end, field.clusters.upperBound <= clusters.count,
                clusters[field.clusters].allSatisfy({ $0 == Tape.fieldFill })
            else { throw TimelineFieldError("\(key): field '\(field.name)' does not lie on fill cells of the tape") }
            end = field.clusters.upperBound
        }
        return layout
    }

    func optionalInt64(_ key: String) throws(TimelineFieldError) -> Int64? {
        guard fields[key] != nil else { return nil }
        return try int64(key)
    }

    func uint32(_ key: String) throws(TimelineFieldError) -> UInt32 {
        guard case let .uint32(value) = try value(key) else { throw TimelineFieldError("\(key) must be a uint32 (u)") }
        return value
    }

    func name<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) throws(TimelineFieldError) -> T
    where T.RawValue == String {
        let raw = try string(key)
        guard let value = T(rawValue: raw) else {
            let known = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw TimelineFieldError("\(key) '\(raw)' is not one of: \(known)")
        }
        return value
    }

    func tape(text textKey: String, gap gapKey: String) throws(TimelineFieldError) -> Tape {
        let text = try string(textKey)
        let gap = try string(gapKey)
        guard text.utf8.count >= gap.utf8.count, text.utf8.suffix(gap.utf8.count).elementsEqual(gap.utf8) else {
            throw TimelineFieldError("\(textKey) must end with \(gapKey)")
        }
        let content = String(decoding: text.utf8.dropLast(gap.utf8.count), as: UTF8.self)
        return Tape(content: content, gap: gap)
    }
}
