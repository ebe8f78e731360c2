import DBus
import Glibc
import Logging
import TOMLConfig

/// The running sources service: one loop, one bus connection, the lease manager and every
/// configured source.
///
/// Guarantees: a source that fails to start is logged and left out; the others run. SIGTERM and
/// SIGINT stop the sources (ending their commands) and leave the messages to their leases, so a
/// restart adopts them without a flicker. SIGHUP reads the configuration again (see ``reload()``).
/// At start and at each reload, the state files of sources no longer configured are removed.
public final class SourcesService {
    private var config: SourcesConfig
    private let bus: Connection.Bus
    private let logger: Logger
    private let loader: (() throws(ConfigError) -> SourcesConfig)?
    private let state: SourceStateStore?

    private var loop: EventLoop?
    private var connection: Connection?
    private var children: ChildReaper?
    private var leases: LeaseManager?
    /// The running sources by name, each with the fingerprint of the table it was made from.
    private var running: [String: (source: any ItemSource, fingerprint: String)] = [:]
    /// Bumped each time a source of that name starts: a publish from an instance that a reload
    /// replaced or retired is dropped.
    private var generations: [String: Int] = [:]

    /// A service for `config`, talking to tickerd (and watching players and notifications) on
    /// `bus`. `state` is where sources keep what outlives a restart (nil: nothing is kept).
    /// `loader` reads the configuration again on SIGHUP (nil: SIGHUP only logs).
    public init(
        config: SourcesConfig, bus: Connection.Bus, logger: Logger, state: SourceStateStore? = nil,
        loader: (() throws(ConfigError) -> SourcesConfig)? = nil
    ) {
        self.config = config
        self.state = state
        self.bus = bus
        self.logger = logger
        self.loader = loader
    }

    /// Runs until SIGTERM or SIGINT (or the bus connection closes). Throws when the bus cannot
    /// be reached at all.
    public func run() throws {
        try EventLoop.blockSignals([SIGTERM, SIGINT, SIGCHLD, SIGHUP])
        let loop = try EventLoop()
        let connection = try Connection(bus: bus, loop: loop)
        let leases = LeaseManager(
            loop: loop, writer: TickerWriter(connection: connection), timing: config.timing, logger: logger)
        (self.loop, self.connection, self.leases) = (loop, connection, leases)
        children = try ChildReaper(loop: loop)
        for entry in config.entries { leases.add(entry.binding) }
        try leases.start()
        leases.onActivated = { [unowned self] name, key in running[name]?.source.activated(key: key) }
        removeUnclaimedState()
        for entry in config.entries { start(entry) }
        let stop: (Int32) -> Void = { [unowned self] signal in
            logger.info("stopping (signal \(signal)); the messages end with their leases or are adopted on restart")
            for name in running.keys.sorted() { running[name]?.source.stop() }
            running = [:]
            loop.stop()
        }
        try loop.onSignal(SIGTERM, handler: stop)
        try loop.onSignal(SIGINT, handler: stop)
        try loop.onSignal(SIGHUP) { [unowned self] _ in reload() }
        connection.onDisconnect = { [logger] in
            logger.error("the bus connection closed")
            loop.stop()
        }
        logger.info("running \(config.entries.count) sources; lease \(Double(config.timing.lease) / 1e6)s")
        loop.run()
        connection.flush()
    }

    /// Reads the configuration again and applies the difference: sources no longer in it stop
    /// and their messages are removed; new ones start; changed ones (any key of their table)
    /// restart under the same name, so their items keep their message ids and are updated in
    /// place; unchanged ones carry on untouched; the state files of sources no longer configured
    /// are removed. A file that cannot be read or has a mistake is logged with file, line and key,
    /// and the running configuration stays (and so do all state files).
    func reload() {
        guard let loader, let leases else {
            logger.notice("SIGHUP: restart the service to read its configuration again")
            return
        }
        let next: SourcesConfig
        do {
            next = try loader()
        } catch {
            logger.error("reload refused, the running sources stay: \(error)")
            return
        }
        let names = Set(next.entries.map(\.binding.name))
        var retired = 0, started = 0, restarted = 0
        for name in running.keys.sorted() where !names.contains(name) {
            running[name]?.source.stop()
            running[name] = nil
            generations[name, default: 0] += 1
            leases.retire(source: name)
            retired += 1
        }
        if next.timing != config.timing { leases.change(timing: next.timing) }
        for entry in next.entries {
            let name = entry.binding.name
            if let current = running[name], current.fingerprint == entry.fingerprint { continue }
            if let current = running[name] {
                current.source.stop()
                running[name] = nil
                restarted += 1
            } else {
                started += 1
            }
            leases.replace(entry.binding)
            start(entry)
        }
        config = next
        removeUnclaimedState()
        logger.info(
            "reloaded: \(started) started, \(restarted) restarted, \(retired) removed, \(running.count) running; lease \(Double(next.timing.lease) / 1e6)s")
    }

    /// Removes the state files of sources that are no longer configured (a feed, notifications
    /// or mqtt source taken out of `sources.toml`, or given another type), logging each; only
    /// files named as this service names them (see ``SourceStateStore/removeUnclaimed(keeping:kinds:)``).
    private func removeUnclaimedState() {
        guard let state else { return }
        let keeping = Set(config.entries.map { SourceStateStore.fileName(kind: $0.kind, source: $0.binding.name) })
        let kinds = Set(SourceKinds.all.map(\.name)).union(config.entries.map(\.kind))
        let tidying = state.removeUnclaimed(keeping: keeping, kinds: kinds)
        for path in tidying.removed {
            logger.notice("removed \(path): the saved state of a source no longer configured")
        }
        for failure in tidying.failed {
            logger.warning("cannot remove the saved state of a source no longer configured, \(failure.path): \(failure.reason)")
        }
    }

    /// Starts one configured source (logging, not throwing, when it cannot start).
    private func start(_ entry: SourcesConfig.Entry) {
        guard let loop, let connection, let children else { return }
        var sourceLogger = logger
        sourceLogger[metadataKey: "source"] = "\(entry.binding.name)"
        let name = entry.binding.name
        generations[name, default: 0] += 1
        let generation = generations[name] ?? 0
        let context = SourceContext(
            name: name, loop: loop, logger: sourceLogger, children: children, connection: connection, state: state
        ) { [weak self] items in
            guard let self, self.generations[name] == generation else { return }
            self.leases?.publish(source: name, items: items)
        }
        if entry.needsNetwork {
            sourceLogger.notice(
                "this source needs the network; under the systemd units add the drop-in tickerd-sources-network.conf")
        }
        do {
            try entry.source.start(context)
            running[name] = (entry.source, entry.fingerprint)
        } catch {
            sourceLogger.error("cannot start the source: \(error)")
            leases?.retire(source: name)
        }
    }
}
