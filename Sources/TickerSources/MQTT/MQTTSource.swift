import DBus
import Glibc
import TickerNames

/// A fleet's messages from an MQTT broker: every retained `<prefix>/<channel>/<id>` is a
/// message (id `src/<source>/<channel>/<id>`), every `<prefix>/<channel>/$settings` the
/// channel's settings.
///
/// Guarantees:
/// - a payload replaces the message of its topic in place (same id, no duplicate); an empty
///   payload removes it; a payload that is not valid is logged once, naming the source, the
///   topic and the problem, and removes that topic's message (as on a screen that joins now,
///   which never saw the one it replaced) while leaving every other message alone;
/// - while the broker is away the messages stay (the lease manager keeps renewing them) until
///   their own `end` or `ttl`; the client reconnects with a growing delay;
/// - a `ttl` counts from the first receipt of that payload on this screen, across restarts of the
///   service (the instant is kept in the source's state file), so a restart never shows a
///   message again that the other screens have ended;
/// - on every (re)connection the retained messages are read again up to this client's sync
///   token (published to its sync topic after subscribing, so it comes back after them), or
///   for `syncTimeout` when the token does not come back; then the messages whose topics
///   did not come are removed, so each screen converges to the broker's retained state, and the
///   others keep their ids (nothing is posted twice);
/// - nothing is published to the lease manager before the first such read is complete, so a
///   restarted service adopts its messages rather than removing and posting them again;
/// - each `$settings` is applied from the channel's configured settings (`Configure` with
///   `reset`), and a `$settings` that is cleared, refused, or gone from the broker when the
///   retained messages are read again brings the channel back to its configured settings — also
///   after a restart of the service (the channels it configured are kept in its state file), so
///   every screen's channel has the settings a screen that joins now would have.
public final class MQTTSource: ItemSource {
    /// The connection and tree.
    public let settings: MQTTSettings

    private struct Received {
        var payload: [UInt8]
        var item: SourceItem
    }

    private var context: SourceContext?
    private var client: MQTTClient?
    private var received: [String: Received] = [:]
    /// A channel's settings as the fleet wants them: the `Configure` keys of its `$settings`,
    /// applied from the channel's configured settings (no keys: just those).
    private struct ChannelWish: Equatable {
        /// The payload they came from (empty for a cleared or vanished `$settings`).
        var payload: [UInt8]
        /// The `Configure` keys, without `reset`.
        var values: [String: DBusValue]
        /// Back to the channel's configured settings.
        static let configured = ChannelWish(payload: [], values: [:])
    }

    /// What each channel should have, until tickerd has it (a return to the configured settings
    /// is dropped once tickerd has made it).
    private var channelSettings: [String: ChannelWish] = [:]
    /// The last wish sent to tickerd for each channel.
    private var applied: [String: ChannelWish] = [:]
    /// The channels whose settings came from the fleet (kept in the state file): each goes back to
    /// its configured settings when its `$settings` is no longer there.
    private var fleetChannels: Set<String> = []
    private var savedFleetChannels: SavedState<Set<String>>?
    private var problems: [String: [UInt8]] = [:]
    /// The topics seen since the current read of retained messages began (nil outside one).
    private var round: Set<String>?
    private var token: [UInt8]?
    private var roundTimer: LoopTimer?
    private var ready = false
    private var publishPending = false
    private var connectedOnce = false
    private var lastDisconnect: String?
    private var tickerWatcher: NameOwnerWatcher?
    private var connectTimer: LoopTimer?
    private var connectDelay: UInt32 = 1
    private var receipts = FleetReceipts()
    private var savedReceipts: SavedState<FleetReceipts>?

    /// A source following `settings`.
    public init(settings: MQTTSettings) {
        self.settings = settings
    }

    public func start(_ context: SourceContext) throws {
        self.context = context
        let saved = SavedState<FleetReceipts>(
            SourceStateStore.fileName(kind: Self.kind.name, source: context.name), in: context.state, holding: "when each ttl message was received", logger: context.logger)
        savedReceipts = saved
        receipts = saved.load() ?? FleetReceipts()
        let channels = SavedState<Set<String>>(
            SourceStateStore.fileName(kind: Self.kind.name, source: context.name, part: "settings"), in: context.state, holding: "which channels have the fleet's settings",
            logger: context.logger)
        savedFleetChannels = channels
        fleetChannels = channels.load() ?? []
        let loop = context.loop
        let bound = LoopBound(self, loop: loop)
        tickerWatcher = try NameOwnerWatcher(connection: context.connection, name: TickerBus.name) { [weak self] change in
            guard let self, change.newOwner != nil else { return }
            self.applied.removeAll()
            for channel in self.channelSettings.keys.sorted() { self.configure(channel) }
        }
        let client = try MQTTClient(settings: settings) { event in
            loop.execute { bound.value.handle(event) }
        }
        self.client = client
        roundTimer = loop.makeTimer { [weak self] in self?.finishRound(timedOut: true) }
        connectTimer = loop.makeTimer { [weak self] in self?.connect() }
        connect()
    }

    /// Makes the first connection, retrying after 1 s, 2 s, 4 s … up to `reconnect-max` (the
    /// client's own thread takes over once connected).
    private func connect() {
        guard let client, let context else { return }
        do {
            guard let failure = try client.start() else { return }
            handle(.disconnected(failure))
            connectTimer?.schedule(at: .after(.seconds(Int64(connectDelay))))
            connectDelay = min(connectDelay * 2, settings.reconnectMax)
        } catch {
            context.logger.error("cannot connect to the broker \(endpoint): \(error)")
        }
    }

    public func stop() {
        roundTimer?.cancel()
        connectTimer?.cancel()
        tickerWatcher?.cancel()
        client?.stop()
        client = nil
    }

    private var endpoint: String { "\(settings.host):\(settings.port)" }

    private func handle(_ event: MQTTEvent) {
        guard let context, client != nil else { return }
        switch event {
        case .connected:
            if !connectedOnce || lastDisconnect != nil {
                context.logger.info("connected to the broker \(endpoint) as '\(settings.clientID)'")
            }
            connectedOnce = true
            lastDisconnect = nil
        case .refused(let reason):
            context.logger.error("the broker \(endpoint) refused: \(reason)")
        case .disconnected(let reason):
            round = nil
            token = nil
            roundTimer?.cancel()
            guard let reason, reason != lastDisconnect else { return }
            lastDisconnect = reason
            context.logger.warning(
                "broker \(endpoint) unreachable (\(reason)); the messages stay until their own end, reconnecting with a growing delay (at most \(settings.reconnectMax)s)")
        case .subscribed:
            beginRound()
        case .message(let topic, let payload, _):
            receive(topic: topic, payload: payload)
        case .publishRefused(let reason):
            context.logger.error(
                "the broker refused the sync token on \(settings.syncTopic) (\(reason)); its ACL needs 'pattern readwrite tickerd/sync/%c' — until then each read of the retained messages ends after \(Double(settings.syncTimeout) / 1e6)s")
        }
    }

    private func beginRound() {
        round = []
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        token = Array(hex.utf8)
        client?.publish(topic: settings.syncTopic, payload: token ?? [])
        roundTimer?.schedule(at: .after(.microseconds(settings.syncTimeout)))
    }

    private func finishRound(timedOut: Bool) {
        guard let seen = round, let context else { return }
        round = nil
        token = nil
        roundTimer?.cancel()
        if timedOut {
            context.logger.warning(
                "the sync token did not come back on \(settings.syncTopic) within \(Double(settings.syncTimeout) / 1e6)s; taking the retained messages received so far as complete")
        }
        let gone = received.keys.filter { !seen.contains($0) }
        for topic in gone { received[topic] = nil }
        forgetReceipts { receipts in receipts.byTopic.keys.filter { !seen.contains($0) } }
        // A `$settings` that is not retained any more (cleared while this service was away, or a
        // broker restored from another backup): back to the configured settings.
        let vanished = Set(channelSettings.keys).union(fleetChannels).filter { !seen.contains(settingsTopic($0)) }
        for channel in vanished.sorted() where channelSettings[channel] != .configured {
            context.logger.info("topic \(settingsTopic(channel)): no settings retained; channel \(channel) goes back to its configured settings")
            channelSettings[channel] = .configured
            configure(channel)
        }
        if !ready || !gone.isEmpty {
            context.logger.info("in step with the broker: \(received.count) messages\(gone.isEmpty ? "" : ", \(gone.count) removed")")
        }
        ready = true
        schedulePublish()
    }

    private func settingsTopic(_ channel: String) -> String { "\(settings.topic)/\(channel)/\(FleetTopic.settingsLevel)" }

    private func receive(topic: String, payload: [UInt8]) {
        if topic == settings.syncTopic {
            if let token, payload == token { finishRound(timedOut: false) }
            return
        }
        guard let context, let place = FleetTopic(topic, prefix: settings.topic) else { return }
        round?.insert(topic)
        switch place {
        case .invalid(let problem):
            report(topic: topic, payload: payload, problem: "topic \(topic): \(problem)")
        case .settings(let channel):
            guard !payload.isEmpty else {
                problems[topic] = nil
                guard channelSettings[channel].map({ $0 != .configured }) ?? fleetChannels.contains(channel) else { return }
                context.logger.info("topic \(topic): settings cleared; channel \(channel) goes back to its configured settings")
                channelSettings[channel] = .configured
                configure(channel)
                return
            }
            do {
                channelSettings[channel] = ChannelWish(payload: payload, values: try FleetSettings.parse(payload))
                problems[topic] = nil
            } catch {
                // As on a screen that joins now, which cannot apply these settings either.
                report(topic: topic, payload: payload,
                       problem: "topic \(topic): \(error); channel \(channel) goes back to its configured settings")
                channelSettings[channel] = ChannelWish(payload: payload, values: [:])
            }
            configure(channel)
        case .message(let channel, let id):
            guard !payload.isEmpty else {
                if received.removeValue(forKey: topic) != nil { schedulePublish() }
                problems[topic] = nil
                forgetReceipts { _ in [topic] }
                return
            }
            if received[topic]?.payload == payload { return }  // the same retained message again
            do {
                let message = try FleetMessage(json: payload)
                var receivedAt = LeaseManager.now()
                if message.ttl != nil {
                    let before = receipts
                    receivedAt = receipts.receivedAt(topic: topic, payload: payload, now: receivedAt)
                    if receipts != before { savedReceipts?.save(receipts) }
                } else {
                    forgetReceipts { _ in [topic] }
                }
                let item = SourceItem(
                    key: "\(channel)/\(id)", fields: ["text": message.text, "channel": channel, "id": id],
                    link: message.link, urgent: message.urgent,
                    expires: message.expires(receivedAt: receivedAt), channel: channel,
                    priority: message.priority, options: message.passedOptions)
                received[topic] = Received(payload: payload, item: item)
                problems[topic] = nil
                schedulePublish()
            } catch {
                // The broker no longer holds a message for this topic: a screen that joins or
                // restarts now cannot show the one it replaced, so none does.
                let had = received.removeValue(forKey: topic) != nil
                forgetReceipts { _ in [topic] }
                report(topic: topic, payload: payload,
                       problem: "topic \(topic): \(error)\(had ? "; its message is removed" : "")")
                if had { schedulePublish() }
            }
        }
    }

    /// Forgets the receipts of the topics `which` picks, and saves when that changed anything.
    private func forgetReceipts(_ which: (FleetReceipts) -> [String]) {
        var changed = false
        for topic in which(receipts) where receipts.forget(topic) { changed = true }
        if changed { savedReceipts?.save(receipts) }
    }

    /// Logs a bad payload once (again only when the payload changes).
    private func report(topic: String, payload: [UInt8], problem: String) {
        guard problems[topic] != payload else { return }
        problems[topic] = payload
        context?.logger.error("\(problem); the other messages are not affected", metadata: ["topic": "\(topic)"])
    }

    /// Sends the channel's wished settings to tickerd (`Configure` with `reset`, so they start from
    /// the channel's configured settings) unless it has them already. Settings tickerd refuses
    /// are logged and replaced by the configured settings alone.
    private func configure(_ channel: String) {
        guard let context, let wanted = channelSettings[channel], applied[channel] != wanted else { return }
        applied[channel] = wanted
        let topic = settingsTopic(channel)
        if !wanted.values.isEmpty, fleetChannels.insert(channel).inserted { savedFleetChannels?.save(fleetChannels) }
        do {
            let message = try Message.methodCall(
                destination: TickerBus.name, path: try ObjectPath(TickerBus.managerPath),
                interface: TickerBus.controlInterface, member: "Configure")
            var values = wanted.values
            values["reset"] = .bool(true)
            try message.append([.string(channel), .vardict(values)])
            try context.connection.call(message, timeout: .seconds(10)) { [weak self] result in
                self?.configured(channel, wanted, result: result)
            }
        } catch {
            context.logger.error("topic \(topic): cannot send the settings: \(error)")
        }
    }

    /// The errors with which tickerd refuses settings themselves.
    private static let refusals: Set<String> = ["InvalidOption", "InvalidText", "LimitExceeded", "PhaseLocked"]
        .reduce(into: []) { $0.insert(TickerBus.errorPrefix + $1) }

    /// Takes tickerd's answer to the `Configure` that sent `wanted` to `channel`.
    private func configured(_ channel: String, _ wanted: ChannelWish, result: Result<Message, DBusError>) {
        let topic = settingsTopic(channel)
        switch result {
        case .success:
            // Back to the configured settings: nothing of the fleet's is left to restore.
            guard wanted.values.isEmpty, channelSettings[channel] == wanted else { return }
            if wanted.payload.isEmpty { channelSettings[channel] = nil }
            if fleetChannels.remove(channel) != nil { savedFleetChannels?.save(fleetChannels) }
        case .failure(let error):
            if applied[channel] == wanted { applied[channel] = nil }
            // Settings tickerd judged bad, as opposed to a tickerd that is away or cannot store
            // (the wish stays, and is sent again when tickerd is back).
            let refused = Self.refusals.contains(error.name)
            guard !wanted.values.isEmpty, refused else {
                context?.logger.error(
                    wanted.values.isEmpty
                        ? "topic \(topic): tickerd refused to bring channel \(channel) back to its configured settings: \(error)"
                        : "topic \(topic): cannot send the settings: \(error)",
                    metadata: ["topic": "\(topic)"])
                return
            }
            context?.logger.error(
                "topic \(topic): tickerd refused the settings: \(error); channel \(channel) goes back to its configured settings",
                metadata: ["topic": "\(topic)"])
            guard channelSettings[channel] == wanted else { return }
            channelSettings[channel] = ChannelWish(payload: wanted.payload, values: [:])
            configure(channel)
        }
    }

    /// Publishes the current items once the current loop turn is done (many retained messages
    /// arrive together).
    private func schedulePublish() {
        guard ready, !publishPending, let context else { return }
        publishPending = true
        context.loop.runSoon { [weak self] in
            guard let self else { return }
            self.publishPending = false
            self.context?.publish(self.received.keys.sorted().compactMap { self.received[$0]?.item })
        }
    }
}
