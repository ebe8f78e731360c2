extension Timeline {
    /// The first instant after `t` at which the text a viewer of `columns` cells sees with
    /// `effects` may differ from the text at `t`, or nil when it never changes: the motion's next
    /// change (``nextChange(after:columns:)``, nil while paused) or the next change of an effect the
    /// frame at `t` shows — a counter's number, a dot raised or lowered, another cluster revealed.
    /// Effects the frame does not show cannot change it before the motion does, so they are not
    /// waited for; once every shown effect has settled this is the motion's answer, and an idle
    /// channel costs nothing.
    ///
    /// With `extras` true it also reports the extras' changes: while a shown dot is in the air or a
    /// shown reveal is under way they change continuously and the answer is `t + 1` (the daemon
    /// paces such frames by the subscriber's rate); otherwise the next jump or reveal start.
    /// Never late; it may be early.
    public func nextChange(after t: Instant, columns: Int, effects: EffectState, extras: Bool = false) -> Instant? {
        var soonest = nextChange(after: t, columns: columns)
        func consider(_ instant: Instant?) {
            guard let instant, instant > t else { return }
            soonest = min(soonest ?? instant, instant)
        }
        let viewed = effects.forViewer(columns: columns)
        var painter = EffectPainter(effects: viewed, at: t, recording: true)
        _ = render(columns: columns, at: t, painter: &painter)
        for name in painter.shownFields {
            consider(viewed.counters[name]?.nextChange(after: t))
        }
        for message in painter.shownMessages {
            switch viewed.messages[message.key] {
            case let .reveal(reveal)?:
                consider(reveal.nextChange(after: t, clusters: message.clusters.count))
                if extras { consider(t < reveal.start ? reveal.start : (t < reveal.endInstant ? t + 1 : nil)) }
            case let .dots(dots)?:
                consider(dots.nextChange(after: t))
                if extras { consider(dots.isJumping(at: t) ? t + 1 : dots.nextJumpEdge(after: t)) }
            case nil:
                break
            }
        }
        return soonest
    }
}
