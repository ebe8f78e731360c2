/// A channel's motion as a pure function of time (DESIGN §3 "Timeline", §4).
///
/// Everything a viewer sees follows from these fields and an instant: ``frame(columns:at:)``
/// never reads a clock and nothing ticks. A timeline changes only when motion changes
/// discontinuously (content change, pause, resume, settings), and each change returns a new value.
/// ``fields`` gives the D-Bus `a{sv}` form and ``init(fields:)`` reads it back, so a client can
/// compute every frame itself.
public struct Timeline: Sendable, Equatable {
    /// The tape in effect (before a pending change switches).
    public internal(set) var tape: Tape
    /// The instant at which the stream position was ``position`` (the motion's time origin).
    public internal(set) var anchor: Instant
    /// Stream position in cells at ``anchor`` (continuous and scroll mode).
    public internal(set) var position: Double
    /// Speed in cells per second (> 0).
    public internal(set) var speed: Double
    /// When the speed was given as a cycle duration: that duration (the speed follows each tape).
    public internal(set) var cycleDuration: Int64?
    /// Motion mode.
    public internal(set) var mode: Mode
    /// Hold time: the start delay in continuous mode, the hold at each stop in scroll and bounce.
    public internal(set) var delay: Int64
    /// Easing of scroll and bounce moves.
    public internal(set) var easing: Easing
    /// Cycles before holding at home; 0 for ever.
    public internal(set) var loops: UInt32
    /// Direction of motion.
    public internal(set) var direction: Direction
    /// Placement of text that fits.
    public internal(set) var align: Align
    /// A content change waiting for its seam, if any.
    public internal(set) var pending: PendingChange?
    /// When paused: the instant the stream froze.
    public internal(set) var pausedAt: Instant?
    /// What the motion is anchored to. Phase-locked (``Phase/wallClock``) timelines settle into
    /// their canonical form — ``anchor`` the epoch (0), ``position`` 0 — which depends on the
    /// content and the settings alone (docs/rendering.md §13).
    public internal(set) var phase: Phase = .local

    /// Cells in one cycle of ``tape``.
    public var width: Int { tape.width }
    /// True while paused.
    public var isPaused: Bool { pausedAt != nil }

    /// A timeline that starts `tape` at home at `start` with the channel's `settings`
    /// (validate them first with ``ChannelSettings/validated(limits:)``); `paused` freezes it there.
    /// A phase-locked one (``ChannelSettings/phase`` wall-clock) ignores `start`: it is anchored
    /// at the epoch, so its frames depend on the content and the settings alone.
    public init(tape: Tape, settings: ChannelSettings, at start: Instant, paused: Bool = false) {
        self.tape = tape
        self.phase = settings.phase
        self.anchor = settings.phase == .wallClock ? 0 : start
        self.position = 0
        if case let .cycleDuration(duration) = settings.speed {
            self.cycleDuration = duration
        } else {
            self.cycleDuration = nil
        }
        self.speed = settings.speed.cellsPerSecond(forWidth: tape.width)
        self.mode = settings.mode
        self.delay = settings.effectiveDelay
        self.easing = settings.easing
        self.loops = settings.loops
        self.direction = settings.direction
        self.align = settings.align
        self.pending = nil
        self.pausedAt = paused ? start : nil
    }

    /// Memberwise initialiser for decoding; fields are trusted to be in range.
    init(
        tape: Tape, anchor: Instant, position: Double, speed: Double, cycleDuration: Int64?,
        mode: Mode, delay: Int64, easing: Easing, loops: UInt32, direction: Direction,
        align: Align, pending: PendingChange?, pausedAt: Instant?, phase: Phase = .local
    ) {
        self.tape = tape
        self.anchor = anchor
        self.position = position
        self.speed = speed
        self.cycleDuration = cycleDuration
        self.mode = mode
        self.delay = delay
        self.easing = easing
        self.loops = loops
        self.direction = direction
        self.align = align
        self.pending = pending
        self.pausedAt = pausedAt
        self.phase = phase
    }

    /// True when the motion is anchored to the epoch (``Phase/wallClock``).
    public var isPhaseLocked: Bool { phase == .wallClock }

    /// The speed, in cells per second, this timeline gives a tape `width` cells wide.
    func speed(forWidth width: Int) -> Double {
        guard let cycleDuration else { return speed }
        return Speed.cycleDuration(cycleDuration).cellsPerSecond(forWidth: width)
    }
}

/// A content change that waits for its seam: the new `tape` takes over at stream position
/// `switchPosition`, with its cell `nextStart` there.
///
/// For direction left the stream is the old tape below `switchPosition` and the new one from it on;
/// for direction right the new tape lies below and the old one from it on. Either way stream cell
/// `x` on the new side is new-tape cell `(x − switchPosition + nextStart) mod width`
/// (docs/rendering.md §6).
public struct PendingChange: Sendable, Equatable {
    /// The tape that takes over.
    public internal(set) var tape: Tape
    /// Stream position where the new tape takes over: the start of a message of the old tape
    /// (in scroll mode, and for tapes without messages, a multiple of the old tape's width).
    public internal(set) var switchPosition: Int
    /// The new tape's cell at ``switchPosition``: where the message the stream continues with
    /// starts (0 in scroll mode and for tapes without messages). In `0..<tape.width`, or 0.
    public internal(set) var nextStart: Int = 0
    /// Phase-locked timelines: blank cells on the new side of the switch, next to it, so that no
    /// message of the new tape enters the view cut (docs/rendering.md §13). Direction left: stream
    /// cells `switchPosition ..< switchPosition + leadIn`; right: `switchPosition − leadIn ..<
    /// switchPosition`. At most one message and the separator after it; 0 otherwise.
    public internal(set) var leadIn: Int = 0
    /// Speed, in cells per second, after the switch.
    public internal(set) var speed: Double
    /// The instant the change was made, on the timeline's clock (the effective instant: the pause
    /// instant when made while paused; moved on with ``Timeline/anchor`` by a resume). From it on,
    /// a viewer for whom both the old and the new content fit shows the new content still
    /// (docs/rendering.md §6). Nil for a timeline read without it: such viewers wait for the switch.
    public internal(set) var changedAt: Instant? = nil
}
