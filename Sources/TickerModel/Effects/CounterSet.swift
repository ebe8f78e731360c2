/// A channel's named values (DESIGN §3 `SetValue`): what `{name}` placeholders show.
public struct CounterSet: Sendable, Hashable {
    /// The counters by name.
    public private(set) var counters: [String: Counter]

    /// No values.
    public init() {
        counters = [:]
    }

    /// The counter called `name`, if set.
    public subscript(name: String) -> Counter? {
        counters[name]
    }

    /// True when no value is set.
    public var isEmpty: Bool { counters.isEmpty }

    /// `SetValue(name, value, options)` at `t`: counts to `value` from the value shown at `t` (or
    /// `options.from`; a new name without `from` starts at `value`, so it simply appears), over
    /// `options.duration` with `options.easing`, applying the format options. Throws for a bad
    /// name, value, duration or format; the set is unchanged then.
    ///
    /// The result says whether a tape built at `t` lays the counter out differently than before
    /// (new name, another field width, prefix or suffix): the daemon then rebuilds the tape.
    @discardableResult
    public mutating func set(
        _ name: String, to value: Double, options: CounterOptions = CounterOptions(), at t: Instant
    ) throws(EffectError) -> CounterChange {
        guard Placeholders.isValidName(name) else { throw .invalidCounterName(name) }
        let old = counters[name]
        let format = try options.format(over: old?.format ?? .plain)
        let counter = try Counter(
            from: options.from ?? old?.value(at: t) ?? value, to: value, start: t,
            duration: options.duration, easing: options.easing, format: format)
        counters[name] = counter
        return CounterChange(
            layoutChanged: old.map { !$0.hasSameLayout(as: counter, at: t) } ?? true,
            endInstant: counter.endInstant)
    }

    /// Puts `counter` back under `name` exactly as it was (restoring a stored state); unlike
    /// ``set(_:to:options:at:)`` it starts no count. Invalid names are ignored.
    public mutating func restore(_ name: String, _ counter: Counter) {
        guard Placeholders.isValidName(name) else { return }
        counters[name] = counter
    }

    /// Removes the value called `name` (its placeholders show `{name}` again after a rebuild).
    public mutating func remove(_ name: String) {
        counters[name] = nil
    }

    /// The earliest count end after `t` (when to signal `ValueReached` and rebuild the tape so
    /// the field narrows to the final value), or nil if no count ends after `t`.
    public func nextEnd(after t: Instant) -> Instant? {
        counters.values.lazy.map(\.endInstant).filter { $0 > t }.min()
    }

    /// The names (sorted) and final values of the counts that end in `(after, through]`: the
    /// `ValueReached` signals due when the daemon wakes at `through` having last looked at `after`.
    public func reached(after: Instant, through: Instant) -> [(name: String, value: Double)] {
        counters.filter { $0.value.endInstant > after && $0.value.endInstant <= through }
            .sorted { $0.key < $1.key }
            .map { (name: $0.key, value: $0.value.to) }
    }
}

/// What a ``CounterSet/set(_:to:options:at:)`` changed, for the daemon.
public struct CounterChange: Sendable, Hashable {
    /// True when a tape built now would lay the counter's placeholders out differently (a new
    /// name, another field width, prefix or suffix): rebuild the tape.
    public let layoutChanged: Bool
    /// When the count reaches its value: signal `ValueReached` then (at once for a jump) and
    /// rebuild the tape, so the field narrows to the final value.
    public let endInstant: Instant
}

extension Counter {
    /// True when tapes built at `t` with either counter are the same (same field width, prefix
    /// and suffix).
    func hasSameLayout(as other: Counter, at t: Instant) -> Bool {
        format.prefix == other.format.prefix && format.suffix == other.format.suffix
            && fieldWidth(at: t) == other.fieldWidth(at: t)
    }
}
