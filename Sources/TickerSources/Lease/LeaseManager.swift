import DBus
import Logging
import TickerNames

/// Keeps tickerd's messages in line with what the sources publish, as leases.
///
/// Guarantees:
/// - every current item has exactly one message, id `src/<source>/<key>`, posted once and then
///   changed in place with `Update` (no `MessageEnded`/`MessageStarted` while it stays current);
/// - a source's messages are posted in the order it published its items, so a set posted
///   together joins tickerd's tape in that order (within a priority, on a local channel);
/// - each message ends at most one lease after its last renewal, and renewals come every third of
///   a lease while the item is current, so a service that dies leaves nothing behind for longer
///   than a lease;
/// - an item that goes away is removed at once;
/// - on start (and whenever tickerd comes back on the bus) it lists tickerd's messages and adopts
///   those with its sources' ids: a source's first publish updates the ones still current and
///   removes the rest, so a restart neither duplicates nor re-posts a message;
/// - a source replaced by a reload keeps its messages (renewed as they were) until its new
///   instance publishes, and a source retired by a reload has its messages removed at once.
public final class LeaseManager {
    private let loop: EventLoop
    private let writer: TickerWriter
    private var timing: LeaseTiming
    private let logger: Logger
    private var bindings: [String: SourceBinding] = [:]
    /// What each source wants shown, by message id (sources that have published at least once).
    private var desired: [String: [String: DesiredMessage]] = [:]
    /// The ids of each source's messages in the order it published its items (its tape order).
    private var published: [String: [String]] = [:]
    /// What tickerd holds of ours, as far as we know (nil until tickerd's list has been read).
    private var held: [String: DesiredMessage]?
    private var renewTimer: LoopTimer?
    private var ownerWatcher: NameOwnerWatcher?
    private var listing = false
    private var listFailureLogged = false
    /// Messages tickerd refused (a text too long, a bad link): not posted again, nor logged
    /// again, until the item changes.
    private var refused: [String: DesiredMessage] = [:]
    /// The source and item key of each current message id (for activation).
    private var itemKeys: [String: (source: String, key: String)] = [:]
    private var activations: SignalSubscription?

    /// Called on the loop when tickerd reports that a message of ours was activated (its
    /// `Activated` signal): the source's name and the item's key.
    public var onActivated: ((_ source: String, _ key: String) -> Void)?

    /// A manager writing through `writer` on `loop`.
    public init(loop: EventLoop, writer: TickerWriter, timing: LeaseTiming, logger: Logger) {
        self.loop = loop
        self.writer = writer
        self.timing = timing
        self.logger = logger
    }

    /// Adds a source's binding (before ``start()``).
    public func add(_ binding: SourceBinding) {
        bindings[binding.name] = binding
    }

    /// Adds or replaces a source's binding after ``start()`` (a reload): the messages it has are
    /// kept and renewed as they are until the source publishes again.
    public func replace(_ binding: SourceBinding) {
        bindings[binding.name] = binding
    }

    /// Forgets source `name` (a reload dropped it): its messages are removed from tickerd now,
    /// and it publishes nothing more. Messages tickerd holds that this manager has not seen yet
    /// (tickerd unreachable at the moment) end with their lease.
    public func retire(source name: String) {
        guard let binding = bindings.removeValue(forKey: name) else { return }
        desired[name] = nil
        published[name] = nil
        for id in itemKeys.keys where id.hasPrefix(binding.idPrefix) { itemKeys[id] = nil }
        for id in refused.keys where id.hasPrefix(binding.idPrefix) { refused[id] = nil }
        for id in (held ?? [:]).keys.sorted() where id.hasPrefix(binding.idPrefix) { remove(id, source: name) }
    }

    /// Uses `timing` from the next renewal on (a reload changed `lease`).
    public func change(timing: LeaseTiming) {
        self.timing = timing
    }

    /// Starts watching tickerd's name, adopts its messages and begins renewing.
    public func start() throws {
        ownerWatcher = try NameOwnerWatcher(connection: writer.connection, name: TickerBus.name) { [weak self] change in
            guard let self else { return }
            if change.newOwner == nil {
                self.logger.info("tickerd left the bus; its messages will be posted again when it is back")
                self.held = nil
            } else {
                self.adopt()
            }
        }
        activations = try writer.connection.addMatch(MatchRule(
            interface: TickerBus.managerInterface, member: "Activated", path: try ObjectPath(TickerBus.managerPath)
        )) { [weak self] message in
            guard let self, let arguments = try? message.arguments(), arguments.count == 2,
                  let id = arguments[1].stringValue, let item = self.itemKeys[id] else { return }
            self.onActivated?(item.source, item.key)
        }
        adopt()
        let timer = loop.makeTimer { [weak self] in self?.renew() }
        renewTimer = timer
        timer.schedule(at: .after(.microseconds(timing.renewal)))
    }

    /// The source called `name` publishes `items` (its complete current set).
    public func publish(source name: String, items: [SourceItem]) {
        guard let binding = bindings[name] else { return }
        var wanted: [String: DesiredMessage] = [:]
        var order: [String] = []
        for item in items {
            guard let message = binding.message(for: item) else { continue }
            let id = binding.messageID(of: item.key)
            if wanted[id] != nil {
                logger.warning("two items have the same key; showing the first", metadata: ["source": "\(name)", "key": "\(item.key)"])
                continue
            }
            wanted[id] = message
            order.append(id)
            itemKeys[id] = (name, item.key)
        }
        for id in (desired[name] ?? [:]).keys where wanted[id] == nil { itemKeys[id] = nil }
        desired[name] = wanted
        published[name] = order
        sync(source: name)
    }

    /// Reads tickerd's messages and takes ours as held, then syncs every source that has published.
    private func adopt() {
        guard !listing else { return }
        listing = true
        writer.list { [weak self] result in
            guard let self else { return }
            self.listing = false
            switch result {
            case .failure(let error):
                if !self.listFailureLogged {
                    self.logger.warning("cannot reach tickerd (retrying every renewal until it is there): \(error)")
                    self.listFailureLogged = true
                }
                self.held = nil
            case .success(let all):
                if self.listFailureLogged { self.logger.info("tickerd is there; adopting its messages") }
                self.listFailureLogged = false
                let prefixes = self.bindings.values.map(\.idPrefix)
                self.held = all.filter { id, _ in prefixes.contains { id.hasPrefix($0) } }
                for name in self.desired.keys.sorted() { self.sync(source: name) }
            }
        }
    }

    /// Brings tickerd in line with what source `name` wants.
    private func sync(source name: String) {
        guard let held, let binding = bindings[name] else { return }
        let now = Self.now()
        let wanted = (desired[name] ?? [:]).filter { _, message in (message.expires ?? .max) > now }
        for id in refused.keys where id.hasPrefix(binding.idPrefix) && refused[id] != wanted[id] { refused[id] = nil }
        // In the source's order: messages posted together join the tape in the order they come.
        for id in published[name] ?? [] {
            guard let message = wanted[id], refused[id] == nil else { continue }
            if let old = held[id], old.channel == message.channel, message.hasSameOptions(as: old, at: now) {
                if !message.looksLike(old) { update(id, message, from: old, now: now, source: name) }
            } else {
                post(id, message, now: now, source: name)
            }
        }
        for id in held.keys.sorted() where id.hasPrefix(binding.idPrefix) && wanted[id] == nil {
            remove(id, source: name)
        }
    }

    /// Renews every current message's lease and drops the items that expired.
    private func renew() {
        defer { renewTimer?.schedule(at: .after(.microseconds(timing.renewal))) }
        guard held != nil else { adopt(); return }
        let now = Self.now()
        for name in desired.keys.sorted() {
            guard let wanted = desired[name] else { continue }
            for id in wanted.keys.sorted() {
                guard let message = wanted[id] else { continue }
                if let expires = message.expires, expires <= now { continue }
                guard held?[id] != nil else { continue }  // not posted (refused, or in flight): sync decides
                update(id, message, from: message, now: now, source: name)
            }
            sync(source: name)
        }
    }

    private func post(_ id: String, _ message: DesiredMessage, now: Int64, source: String) {
        held?[id] = message
        writer.post(id: id, message, end: timing.end(now: now, expires: message.expires, start: message.start)) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            if self.held?[id] == message { self.held?[id] = nil }
            if error.name.hasPrefix(TickerBus.errorPrefix) {
                // tickerd's own verdict on this message: it stands until the item changes.
                self.refused[id] = message
                self.logger.error(
                    "tickerd refused the message (shown again when the item changes): \(error)",
                    metadata: ["source": "\(source)", "id": "\(id)"])
            } else {
                self.logger.error("cannot post the message: \(error)", metadata: ["source": "\(source)", "id": "\(id)"])
            }
        }
    }

    private func update(_ id: String, _ message: DesiredMessage, from old: DesiredMessage, now: Int64, source: String) {
        held?[id] = message
        writer.update(id: id, message, from: old, end: timing.end(now: now, expires: message.expires, start: message.start)) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            guard self.held?[id] == message else { return }
            self.held?[id] = nil
            if error.name == TickerBus.Error.noSuchMessage.name {
                // Ended meanwhile (lapsed, or removed by hand): post it again if still wanted.
                if self.desired[source]?[id] == message { self.post(id, message, now: Self.now(), source: source) }
            } else {
                self.logger.error("tickerd refused the update: \(error)", metadata: ["source": "\(source)", "id": "\(id)"])
            }
        }
    }

    private func remove(_ id: String, source: String) {
        held?[id] = nil
        writer.remove(id: id) { [weak self] result in
            guard let self, case .failure(let error) = result, error.name != TickerBus.Error.noSuchMessage.name else { return }
            self.logger.warning("cannot remove the message: \(error)", metadata: ["source": "\(source)", "id": "\(id)"])
        }
    }

    /// Now in microseconds since the Unix epoch (tickerd's instants).
    static func now() -> Int64 { TimerClock.realtime.nowNanoseconds / 1000 }
}
