import DBus
import Testing
import TickerModel
@testable import tickerctl

/// `follow`'s schedule: one wake-up per visible change, none missed, none while nothing moves.
@Suite struct FollowPlannerTests {
    static let start: Instant = 1_700_000_000_000_000

    static func snapshot(_ messages: [String], _ configure: (inout ChannelSettings) -> Void = { _ in },
                         paused: Bool = false) throws -> ChannelSnapshot {
        var settings = ChannelSettings()
        configure(&settings)
        let tape = Tape(messages: messages, separator: settings.separator, gap: settings.gap)
        let timeline = Timeline(tape: tape, settings: try settings.validated(), at: start, paused: paused)
        return ChannelSnapshot(timeline: timeline, text: messages.joined(separator: "  •  "), columns: 0)
    }

    /// Simulates `follow`: print when the line looks different, sleep until the planner's wake.
    static func simulate(_ planner: FollowPlanner, _ source: FollowSource, columns: Int, until end: Instant)
        -> (texts: [String], wakes: Int) {
        var texts: [String] = []
        var now = start
        var wakes = 0
        var last: PanelLine?
        var lastAt: Instant?
        while now < end {
            let line = planner.line(for: source, columns: columns, at: now)
            if last.map({ !$0.looksLike(line) }) ?? true {
                texts.append(line.text)
                last = line
                lastAt = now
            }
            guard let wake = planner.nextWake(for: source, columns: columns, after: now, lastLineAt: lastAt) else { break }
            #expect(wake > now)
            now = wake
            wakes += 1
        }
        return (texts, wakes)
    }

    /// The reference: sample every millisecond and keep each text that differs from the one before.
    static func reference(_ snapshot: ChannelSnapshot, columns: Int, until end: Instant) -> [String] {
        var texts: [String] = []
        var now = start
        while now < end {
            let text = snapshot.timeline.frame(columns: columns, at: now).text
            if texts.last != text { texts.append(text) }
            now += 1_000
        }
        return texts
    }

    @Test(arguments: [Mode.continuous, .scroll, .bounce, .pages])
    func followPrintsEveryVisibleChangeOnceAndNothingElse(mode: Mode) throws {
        let snapshot = try Self.snapshot(["Breaking: tickerd follows panels", "second message"]) {
            $0.mode = mode
            $0.speed = .cellsPerSecond(9)
            $0.delay = 400_000
        }
        let planner = FollowPlanner(channel: "main", columnsOverride: 12, minimumInterval: 0)
        let end = Self.start + 8_000_000
        let simulated = Self.simulate(planner, .channel(snapshot), columns: 12, until: end)
        #expect(simulated.texts == Self.reference(snapshot, columns: 12, until: end))
        // Wake-ups stay close to the number of changes (nextChange may be early, never a busy loop).
        #expect(simulated.wakes <= 3 * simulated.texts.count + 10)
    }

    @Test func fpsCapsTheLineRate() throws {
        let snapshot = try Self.snapshot(["a fast ticker that scrolls forty cells every second"]) {
            $0.speed = .cellsPerSecond(40)
        }
        let planner = FollowPlanner(channel: "main", columnsOverride: 10, minimumInterval: 100_000)
        let simulated = Self.simulate(planner, .channel(snapshot), columns: 10, until: Self.start + 2_000_000)
        #expect(simulated.texts.count <= 21)
        #expect(simulated.texts.count >= 19)
    }

    @Test func stillTextPausedAndOfflineChannelsNeedNoWakeUp() throws {
        let planner = FollowPlanner(channel: "main", columnsOverride: 20, minimumInterval: 0)
        let fits = try Self.snapshot(["short"])
        #expect(planner.nextWake(for: .channel(fits), columns: 20, after: Self.start, lastLineAt: nil) == nil)
        #expect(planner.line(for: .channel(fits), columns: 20, at: Self.start).state == .static)
        #expect(planner.line(for: .channel(fits), columns: 20, at: Self.start).text == "short" + String(repeating: " ", count: 15))

        let paused = try Self.snapshot(["a message much longer than twenty cells"], paused: true)
        #expect(planner.nextWake(for: .channel(paused), columns: 20, after: Self.start, lastLineAt: nil) == nil)
        #expect(planner.line(for: .channel(paused), columns: 20, at: Self.start).state == .paused)

        let moving = try Self.snapshot(["a message much longer than twenty cells"])
        #expect(planner.line(for: .channel(moving), columns: 20, at: Self.start).state == .scrolling)

        let empty = try Self.snapshot([])
        #expect(planner.line(for: .channel(empty), columns: 20, at: Self.start).state == .empty)

        for source in [FollowSource.offline, .missingChannel, .channel(empty)] {
            // An empty text: waybar hides the module, polybar and i3blocks collapse it.
            let line = planner.line(for: source, columns: 20, at: Self.start)
            #expect(line.text == "")
            #expect(line.fullText == "")
            #expect(planner.nextWake(for: source, columns: 20, after: Self.start, lastLineAt: nil) == nil)
        }
        #expect(planner.line(for: .offline, columns: 20, at: Self.start).state == .offline)
        #expect(planner.line(for: .missingChannel, columns: 20, at: Self.start).state == .empty)
    }

    @Test func loopsThatEndTurnTheLineStatic() throws {
        let snapshot = try Self.snapshot(["a message much longer than twelve cells"]) {
            $0.loops = 1
            $0.speed = .cellsPerSecond(50)
        }
        let planner = FollowPlanner(channel: "main", columnsOverride: 12, minimumInterval: 0)
        let late = Self.start + 60_000_000
        #expect(planner.line(for: .channel(snapshot), columns: 12, at: late).state == .static)
        #expect(planner.nextWake(for: .channel(snapshot), columns: 12, after: late, lastLineAt: nil) == nil)
    }

    @Test func columnsComeFromTheOptionThenTheChannelThenTheLastUsed() throws {
        var snapshot = try Self.snapshot(["x"])
        snapshot.columns = 33
        let automatic = FollowPlanner(channel: "main", columnsOverride: nil, minimumInterval: 0)
        #expect(automatic.columns(for: .channel(snapshot), last: nil) == 33)
        #expect(automatic.columns(for: .offline, last: 33) == 33)
        #expect(automatic.columns(for: .offline, last: nil) == FollowPlanner.fallbackColumns)
        let fixed = FollowPlanner(channel: "main", columnsOverride: 7, minimumInterval: 0)
        #expect(fixed.columns(for: .channel(snapshot), last: nil) == 7)
    }

    /// The channel's properties as `GetAll` gives them, for ``ChannelSnapshot/init(properties:)``.
    static func properties(_ timeline: Timeline, text: String) -> [String: DBusValue] {
        var fields: [String: DBusValue] = [:]
        for (key, value) in timeline.fields {
            switch value {
            case .string(let string): fields[key] = .string(string)
            case .double(let number): fields[key] = .double(number)
            case .int64(let number): fields[key] = .int64(number)
            case .uint32(let number): fields[key] = .uint32(number)
            }
        }
        return ["Timeline": .vardict(fields), "Text": .string(text)]
    }

    static let separator = ChannelSettings.defaultSeparator

    /// A scrolling channel of `messages`, as follow reads it, and its timeline.
    static func scrollingChannel(_ messages: [String], speed: Double = 10) throws -> (ChannelSnapshot, Timeline) {
        var settings = ChannelSettings()
        settings.speed = .cellsPerSecond(speed)
        let tape = Tape(messages: messages, separator: separator, gap: settings.gap)
        let timeline = Timeline(tape: tape, settings: try settings.validated(), at: start)
        let text = messages.joined(separator: separator)
        return (try ChannelSnapshot(properties: properties(timeline, text: text)), timeline)
    }

    /// The daemon's change of `timeline` to `messages` at `at`, applied as follow receives it.
    static func change(_ snapshot: inout ChannelSnapshot, _ timeline: Timeline, to messages: [String], at: Instant) throws -> Timeline {
        let changed = timeline.applying(
            Tape(messages: messages, separator: separator, gap: ChannelSettings().gap), at: at)
        try snapshot.apply(properties(changed, text: messages.joined(separator: separator)))
        return changed
    }

    @Test func aChannelEmptiedByRemoveIsEmptyOnceTheRemovalReachesTheView() throws {
        let channel = try Self.scrollingChannel(["the only message, long enough to scroll"])
        var snapshot = channel.0
        let removedAt = Self.start + 1_500_000
        let changed = try Self.change(&snapshot, channel.1, to: [], at: removedAt)
        let switchAt = try #require(changed.switchInstant)
        let planner = FollowPlanner(channel: "main", columnsOverride: 16, minimumInterval: 0)
        // Still scrolling out before the switch; afterwards empty, with an empty text and no wake-up.
        let before = planner.line(for: .channel(snapshot), columns: 16, at: switchAt - 1)
        #expect(before.state == .scrolling)
        #expect(before.text == changed.frame(columns: 16, at: switchAt - 1).text)
        for at in [switchAt, switchAt + 1, switchAt + 60_000_000] {
            let line = planner.line(for: .channel(snapshot), columns: 16, at: at)
            #expect(line.state == .empty, "at switch + \(at - switchAt) µs")
            #expect(line.text == "")
            #expect(planner.nextWake(for: .channel(snapshot), columns: 16, after: at, lastLineAt: nil) == nil)
        }
    }

    @Test func theTooltipListsTheContentTheTextShowsNow() throws {
        let kept = "kept message, long enough to scroll past sixteen cells"
        let removed = "REMOVED message that keeps scrolling until the switch"
        var (snapshot, timeline) = try Self.scrollingChannel([kept, removed])
        let planner = FollowPlanner(channel: "main", columnsOverride: 16, minimumInterval: 0)
        let both = kept + Self.separator + removed
        #expect(planner.line(for: .channel(snapshot), columns: 16, at: Self.start).fullText == both)

        timeline = try Self.change(&snapshot, timeline, to: [kept], at: Self.start + 2_000_000)
        let switchAt = try #require(timeline.switchInstant)
        // Until the switch the text still scrolls the old tape, and the tooltip lists it.
        var at = Self.start + 2_000_000
        while at < switchAt {
            let line = planner.line(for: .channel(snapshot), columns: 16, at: at)
            #expect(line.fullText == both, "at switch − \(switchAt - at) µs")
            at += 250_000
        }
        #expect(planner.line(for: .channel(snapshot), columns: 16, at: switchAt).fullText == kept)

        // A second change while the first is pending: the old tape still shows, and so does its text.
        let added = "ADDED later"
        timeline = try Self.change(&snapshot, timeline, to: [kept, added], at: Self.start + 2_500_000)
        let secondSwitch = try #require(timeline.switchInstant)
        #expect(planner.line(for: .channel(snapshot), columns: 16, at: secondSwitch - 1).fullText == both)
        #expect(planner.line(for: .channel(snapshot), columns: 16, at: secondSwitch).fullText
                    == kept + Self.separator + added)
    }
}
