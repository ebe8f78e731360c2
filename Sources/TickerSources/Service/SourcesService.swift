import DBus
import Glibc
import Logging

/// The running sources service: one loop, one bus connection, the lease manager and every
/// configured source.
///
/// Guarantees: a source that fails to start is logged and left out; the others run. SIGTERM and
/// SIGINT stop the sources (ending their commands) and leave the messages to their leases, so a
/// restart adopts them without a flicker.
public final class SourcesService {
    private let config: SourcesConfig
    private let bus: Connection.Bus
    private let logger: Logger

    /// A service for `config`, talking to tickerd (and watching players and notifications) on `bus`.
    public init(config: SourcesConfig, bus: Connection.Bus, logger: Logger) {
        self.config = config
        self.bus = bus
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT (or the bus connection closes). Throws when the bus cannot
    /// be reached at all.
    public func run() throws {
        try EventLoop.blockSignals([SIGTERM, SIGINT, SIGCHLD, SIGHUP])
        let loop = try EventLoop()
        let connection = try Connection(bus: bus, loop: loop)
        let children = try ChildReaper(loop: loop)
        let leases = LeaseManager(
            loop: loop, writer: TickerWriter(connection: connection), timing: config.timing, logger: logger)
        for entry in config.entries { leases.add(entry.binding) }
        try leases.start()
        var started: [any ItemSource] = []
        let byName = Dictionary(config.entries.map { ($0.binding.name, $0.source) }) { first, _ in first }
        leases.onActivated = { name, key in byName[name]?.activated(key: key) }
        for entry in config.entries {
            var sourceLogger = logger
            sourceLogger[metadataKey: "source"] = "\(entry.binding.name)"
            let name = entry.binding.name
            let context = SourceContext(
                name: name, loop: loop, logger: sourceLogger, children: children, connection: connection
            ) { [weak leases] items in
                leases?.publish(source: name, items: items)
            }
            if entry.needsNetwork {
                sourceLogger.notice(
                    "this source needs the network; under the systemd units add the drop-in tickerd-sources-network.conf")
            }
            do {
                try entry.source.start(context)
                started.append(entry.source)
            } catch {
                sourceLogger.error("cannot start the source: \(error)")
            }
        }
        let stop: (Int32) -> Void = { signal in
            self.logger.info("stopping (signal \(signal)); the messages end with their leases or are adopted on restart")
            for source in started { source.stop() }
            loop.stop()
        }
        try loop.onSignal(SIGTERM, handler: stop)
        try loop.onSignal(SIGINT, handler: stop)
        try loop.onSignal(SIGHUP) { _ in self.logger.notice("SIGHUP: restart the service to read its configuration again") }
        connection.onDisconnect = { [logger] in
            logger.error("the bus connection closed")
            loop.stop()
        }
        logger.info("running \(config.entries.count) sources; lease \(Double(config.timing.lease) / 1e6)s")
        loop.run()
        connection.flush()
    }
}
