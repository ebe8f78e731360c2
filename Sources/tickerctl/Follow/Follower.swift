import DBus
import Glibc
import TickerModel

/// The event-driven engine of `follow`.
///
/// It reads the channel's properties once, then only listens: `PropertiesChanged` of the channel
/// (new Timeline, Text, Columns), `NameOwnerChanged` of the daemon's name (gone: the frames of the
/// Timeline it has go on for the grace period, then an offline line; back: read again) and the
/// manager's `PropertiesChanged` (a missing channel may appear). Frames are computed locally;
/// one timer is armed for the next visible change. Nothing is sent on the bus
/// per frame, and nothing runs while nothing visible changes. When the bus itself goes away it
/// connects again with a growing delay. It never stops on its own, except when its reader is gone.
/// Whenever it reads the channel it declares its width to the daemon (`Subscribe` with `fps` 0).
final class Follower {
    private let loop: EventLoop
    private let selection: BusSelection
    private let channelPath: ObjectPath
    private let managerPath: ObjectPath
    private let planner: FollowPlanner
    private let grace: Duration
    private let formatter: any PanelLineFormatter
    private let output: StandardOutput
    private let onOutputClosed: () -> Void

    private var connection: Connection?
    private var subscriptions: [SignalSubscription] = []
    private var nameWatcher: NameOwnerWatcher?
    private var source: FollowSource = .offline
    private var refreshGeneration = 0
    private var lastLine: PanelLine?
    private var lastLineAt: Instant?
    private var lastColumns: Int?
    private var declaredColumns: Int?
    private var frameTimer: LoopTimer?
    private var reconnectTimer: LoopTimer?
    /// Runs out the grace period after the daemon's name went away (armed only then).
    private var graceTimer: LoopTimer?
    private var reconnectDelay = Follower.firstReconnectDelay
    private var outputWatch: FDWatch?

    /// The first wait before connecting to the bus again; it doubles up to ``longestReconnectDelay``.
    static let firstReconnectDelay: Duration = .milliseconds(500)
    /// The longest wait between attempts to connect to the bus.
    static let longestReconnectDelay: Duration = .seconds(8)
    /// How long a property read may take.
    static let readTimeout: Duration = .seconds(10)

    /// A follower of `channel` on `selection`, writing `formatter`'s lines to `output`;
    /// `onOutputClosed` runs when the reader of `output` has gone. While the daemon's name is away
    /// for less than `grace` (a restart), the text goes on from the Timeline it had. Create it on
    /// `loop`'s thread.
    init(
        loop: EventLoop, selection: BusSelection, channel: String, planner: FollowPlanner, grace: Duration,
        formatter: any PanelLineFormatter, output: StandardOutput, onOutputClosed: @escaping () -> Void
    ) throws {
        self.loop = loop
        self.selection = selection
        self.channelPath = try TickerAPI.channelPath(channel)
        self.managerPath = try TickerAPI.managerPath
        self.planner = planner
        self.grace = grace
        self.formatter = formatter
        self.output = output
        self.onOutputClosed = onOutputClosed
    }

    /// Shows the first line and starts listening.
    func start() {
        frameTimer = loop.makeTimer { [unowned self] in self.render() }
        reconnectTimer = loop.makeTimer { [unowned self] in self.connect() }
        graceTimer = loop.makeTimer { [unowned self] in self.show(.offline) }
        loop.onWallClockJump = { [unowned self] in self.render() }
        // A pipe's reader going away shows as an error on our end, even while nothing is written.
        outputWatch = try? loop.watch(fd: output.fd, events: []) { [unowned self] events in
            if events.contains(.error) || events.contains(.hangup) { self.onOutputClosed() }
        }
        connect()
    }

    /// Cancels timers and subscriptions and writes the formatter's farewell.
    func stop() {
        frameTimer?.cancel()
        reconnectTimer?.cancel()
        graceTimer?.cancel()
        outputWatch?.cancel()
        dropConnection()
        output.write(formatter.farewell)
    }

    // MARK: Bus

    private func connect() {
        do {
            let connection = try Connection(bus: selection.bus, loop: loop)
            self.connection = connection
            connection.onDisconnect = { [unowned self] in self.busLost() }
            nameWatcher = try NameOwnerWatcher(connection: connection, name: TickerAPI.busName) { [unowned self] change in
                if change.newOwner != nil {
                    self.graceTimer?.cancel()
                    self.refresh()
                } else {
                    self.daemonLeft()
                }
            }
            subscriptions.append(try connection.addMatch(propertiesChanged(at: channelPath,
                                                                            interface: TickerAPI.channelInterface)) {
                [unowned self] message in self.channelChanged(message)
            })
            subscriptions.append(try connection.addMatch(propertiesChanged(at: managerPath,
                                                                            interface: TickerAPI.managerInterface)) {
                [unowned self] _ in
                if case .missingChannel = self.source { self.refresh() }
            })
            reconnectDelay = Self.firstReconnectDelay
            refresh()
        } catch {
            dropConnection()
            show(.offline)
            scheduleReconnect()
        }
    }

    /// The daemon's name went away: a read in flight answers for the daemon that left. A channel
    /// on screen goes on from its Timeline (its frames are still exact) for the grace period, so a
    /// restart does not blank the panel; then the line turns offline. Anything else is offline now.
    private func daemonLeft() {
        refreshGeneration += 1
        declaredColumns = nil
        guard case .channel = source, grace > .zero else {
            show(.offline)
            return
        }
        graceTimer?.schedule(at: .after(grace))
    }

    private func busLost() {
        graceTimer?.cancel()
        dropConnection()
        show(.offline)
        scheduleReconnect()
    }

    private func dropConnection() {
        refreshGeneration += 1
        declaredColumns = nil
        for subscription in subscriptions { subscription.cancel() }
        subscriptions.removeAll()
        nameWatcher?.cancel()
        nameWatcher = nil
        connection?.onDisconnect = nil
        connection?.close()
        connection = nil
    }

    private func scheduleReconnect() {
        reconnectTimer?.schedule(at: .after(reconnectDelay))
        reconnectDelay = min(reconnectDelay * 2, Self.longestReconnectDelay)
    }

    private func propertiesChanged(at path: ObjectPath, interface: String) -> MatchRule {
        MatchRule(
            sender: TickerAPI.busName, interface: TickerAPI.propertiesInterface, member: "PropertiesChanged",
            path: path, stringArguments: [0: interface])
    }

    /// Reads all the channel's properties (asynchronously; a newer read makes an older one moot).
    private func refresh() {
        guard let connection else { return }
        declaredColumns = nil
        refreshGeneration += 1
        let generation = refreshGeneration
        do {
            let message = try Message.methodCall(
                destination: TickerAPI.busName, path: channelPath, interface: TickerAPI.propertiesInterface,
                member: "GetAll")
            try message.append(.string(TickerAPI.channelInterface))
            try connection.call(message, timeout: Self.readTimeout) { [weak self] result in
                guard let self, generation == self.refreshGeneration else { return }
                self.received(result)
            }
        } catch {
            show(.offline)
        }
    }

    private func received(_ result: Result<Message, DBusError>) {
        switch result {
        case .success(let reply):
            guard let properties = (try? reply.arguments())?.first?.vardictValue else {
                show(.offline)
                return
            }
            do {
                show(.channel(try ChannelSnapshot(properties: properties)))
            } catch {
                complain("cannot read the channel's Timeline: \(error.description)")
                show(.offline)
            }
        case .failure(let error):
            if ClientFailure.missingDaemonErrors.contains(error.name) {
                show(.offline)
            } else if error.name == DBusError.Names.unknownObject || error.name == DBusError.Names.unknownInterface
                        || error.name == TickerAPI.errorPrefix + "NoSuchChannel" {
                show(.missingChannel)
            } else {
                complain("\(error.name): \(error.message)")
                show(.offline)
            }
        }
    }

    private func channelChanged(_ message: Message) {
        guard case .channel(var snapshot) = source else {
            refresh()
            return
        }
        guard let arguments = try? message.arguments(), arguments.count == 3,
              let changed = arguments[1].vardictValue else { return }
        let invalidated = arguments[2].stringArrayValue ?? []
        if !invalidated.isEmpty {
            refresh()
            return
        }
        do {
            try snapshot.apply(changed)
            show(.channel(snapshot))
        } catch {
            complain("cannot read the channel's Timeline: \(error.description)")
            refresh()
        }
    }

    // MARK: Lines

    private func show(_ source: FollowSource) {
        self.source = source
        render()
        declareWidth()
    }

    /// Tells the daemon the width this viewer shows, as a subscription without frames
    /// (`Subscribe` with `fps` 0), so a change reaches the view without a jump; again whenever the
    /// channel is read anew (the daemon came back, the channel appeared) or the width changed. A
    /// daemon that does not know `fps` 0 answers InvalidOption: following goes on without it.
    private func declareWidth() {
        guard let connection, case .channel = source, let columns = lastColumns, columns != declaredColumns else {
            return
        }
        declaredColumns = columns
        do {
            let message = try Message.methodCall(
                destination: TickerAPI.busName, path: channelPath, interface: TickerAPI.channelInterface,
                member: "Subscribe")
            try message.append(.vardict(["columns": .uint32(UInt32(clamping: columns)), "fps": .double(0)]))
            try connection.call(message, timeout: Self.readTimeout) { _ in }
        } catch {
            // Nothing is lost without it: the daemon then waits for the widest possible viewer.
        }
    }

    /// Computes the line for now, writes it when it looks different in the chosen format, and
    /// arms the timer.
    private func render() {
        let now = WallClock.now()
        let columns = planner.columns(for: source, last: lastColumns)
        if columns != lastColumns {
            lastColumns = columns
            declareWidth()
        }
        let step = planner.step(for: source, columns: columns, at: now)
        if lastLine.map({ !formatter.looksSame($0, step.line) }) ?? true {
            guard output.write(formatter.format(step.line)) else {
                onOutputClosed()
                return
            }
            lastLine = step.line
            lastLineAt = now
        }
        if let wake = planner.wake(after: now, nextChange: step.nextChange, lastLineAt: lastLineAt) {
            frameTimer?.schedule(at: .realtime(microsecondsSinceEpoch: wake))
        } else {
            frameTimer?.cancel()
        }
    }

    private func complain(_ text: String) {
        StandardOutput(fd: STDERR_FILENO).write("tickerctl: \(text)\n")
    }
}
