import CMalloc
import DBus
import Glibc
import Logging
import TickerHost
import TickerModel

/// The running service: one event loop that owns the manager, the bus connection, the timers
/// and the signals, like systemd's timesyncd (manager, bus surface and configuration kept apart).
///
/// Nothing ticks: the loop sleeps until a method call arrives, a signal comes, the wall clock
/// jumps, or the single wake-up timer reaches the manager's next due instant (a schedule
/// boundary or a subscriber's frame); the watchdog timer runs only when systemd asked for one.
final class Daemon {
    private let options: DaemonOptions
    private let logger: Logger
    private let loop: EventLoop
    private let notifier = ServiceNotifier()
    private let store: StateStore
    private let configLoader: ConfigLoader
    private let manager: Manager
    private var connection: Connection?
    private var surface: BusSurface?
    private var wakeTimer: LoopTimer?
    private var watchdogTimer: LoopTimer?
    private var ownerWatcher: NameOwnerWatcher?
    private var sleepWatcher: SleepWatcher?
    private var lastStatus = ""
    private var exitCode: Int32 = 0

    /// Prepares a daemon for `options`; nothing is read or connected until `run()`.
    init(options: DaemonOptions, logger: Logger) throws {
        self.options = options
        self.logger = logger
        self.loop = try EventLoop()
        let zones = ZoneInfoLoader()
        self.store = StateStore(directory: options.stateDirectory)
        self.configLoader = ConfigLoader(zones: zones)
        self.manager = Manager(zones: zones, clock: RealtimeClock.now)
    }

    /// Runs until SIGTERM/SIGINT (exit 0) or the loss of the bus (exit 1); start-up failures
    /// (bad configuration, name taken) are logged and answered with exit 1.
    func run() -> Int32 {
        do {
            try start()
        } catch {
            logger.critical("\(error)")
            return 1
        }
        // Only now is the configuration that start() read gone.
        returnStartUpGarbage()
        loop.run()
        shutDown()
        return exitCode
    }

    // MARK: Start and stop

    private func start() throws {
        try restoreStateAndApplyConfiguration()

        let connection = try Connection(bus: options.bus, loop: loop)
        self.connection = connection
        connection.onDisconnect = { [unowned self] in
            logger.error("lost the bus connection; state saved, exiting")
            exitCode = 1
            loop.stop()
        }
        let surface = try BusSurface(connection: connection, manager: manager)
        self.surface = surface
        surface.onChange = { [unowned self] in changed() }
        surface.onReload = { [unowned self] () throws(TickerError) in try reload() }
        surface.onError = { [unowned self] message in logger.warning("\(message)") }
        surface.onEvent = { [unowned self] event in
            if let entry = event.logEntry { logger.info(entry.message, metadata: entry.metadata) }
        }
        manager.observer = surface
        try surface.export()

        sleepWatcher = try SleepWatcher(
            connection: connection, alsoSystemBus: !options.isSystemBus && options.bus == .session, logger: logger
        ) { [unowned self] in wake() }

        try loop.onSignal(SIGTERM) { [unowned self] _ in loop.stop() }
        try loop.onSignal(SIGINT) { [unowned self] _ in loop.stop() }
        try loop.onSignal(SIGHUP) { [unowned self] _ in
            // A failed reload has logged why (once) before it threw; the error is for `Reload()`'s caller.
            try? reload()
        }
        signal(SIGPIPE, SIG_IGN)
        loop.onWallClockJump = { [unowned self] in
            logger.info("the wall clock jumped; re-evaluating the schedule")
            wake()
        }
        wakeTimer = loop.makeTimer { [unowned self] in wake() }
        startWatchdog()

        do {
            try connection.requestName(BusNames.service)
        } catch {
            throw DaemonStartError("cannot own \(BusNames.service): \(error)")
        }
        logger.info(
            "serving \(BusNames.service)",
            metadata: ["state": .string(store.path), "config": .string(options.configPath)])
        lastStatus = manager.statusLine
        notifier.ready(status: lastStatus)
        changed()
    }

    /// Reads the configuration (failing early when it is bad), restores the state, applies the
    /// configuration and drops it: only the manager's state stays in memory.
    ///
    /// The configuration is applied in memory and then stored by one compaction. When that
    /// compaction fails (the state folder is full or read-only) the daemon still starts: what
    /// it restored is on disk already and the configuration is read again at every start, so
    /// nothing is lost; it serves reads, and every change answers `StorageFailed` until the
    /// folder can be written again (each store retries the compaction).
    private func restoreStateAndApplyConfiguration() throws {
        let config = try configLoader.load(path: options.configPath, missingIsEmpty: !options.configExplicit)
        try restoreState()
        do {
            logSkipped(try manager.apply(config: config))
        } catch {
            throw ConfigError(file: options.configPath, line: 0, key: "", problem: "cannot be applied to the saved state: \(error)")
        }
        manager.store = store
        storeStartingState()
    }

    /// Folds the restored journal and the configuration into a new state file, logging (not
    /// failing) when the folder cannot be written.
    private func storeStartingState() {
        let snapshot = manager.snapshot()
        do {
            try store.compact(snapshot)
            manager.markStored(snapshot)
        } catch {
            logger.error(
                "cannot store the state (\(error)); serving what was restored, changes answer StorageFailed until \(store.directory) can be written",
                metadata: ["state": .string(store.path)])
        }
    }

    /// Hands the heap pages that start-up (or a reload) used and freed back to the kernel: parsing
    /// a large configuration and building its first state file leave many free pages between
    /// the live ones, which glibc keeps mapped unless asked (`malloc_trim`).
    private func returnStartUpGarbage() {
        _ = malloc_trim(0)
    }

    private func restoreState() throws {
        try store.prepare()
        switch try store.load(now: RealtimeClock.now()) {
        case .empty:
            logger.info("no saved state; starting fresh")
        case let .loaded(snapshot, notes):
            for note in notes { logger.warning("state journal: \(note)") }
            for problem in manager.restore(snapshot) { logger.warning("state: \(problem)") }
        case let .unreadable(error):
            logger.error(
                "cannot read the saved state (\(error)); tickerd serves an empty state and refuses changes (StorageFailed) until every file in \(store.directory) can be read and written by this user (e.g. chown a journal left by a run as root) and tickerd is restarted",
                metadata: ["state": .string(error.path)])
        case let .corrupt(reason, movedTo):
            logger.error(
                "the state file could not be read (\(reason)); it was moved to \(movedTo) and tickerd starts fresh",
                metadata: ["state": .string(movedTo)])
        }
    }

    private func shutDown() {
        notifier.stopping()
        sleepWatcher?.cancel()
        if let failure = saveNow() { logger.error("could not save the state on exit: \(failure)") }
        if let connection, connection.isConnected {
            _ = try? connection.releaseName(BusNames.service)
            connection.flush()
            connection.close()
        }
        logger.info("stopped")
    }

    private func saveNow() -> String? {
        do {
            let snapshot = manager.snapshot()
            try store.compact(snapshot)
            manager.markStored(snapshot)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Reload

    private func reload() throws(TickerError) {
        notifier.reloading(monotonicMicroseconds: RealtimeClock.monotonicMicroseconds())
        defer { notifier.ready(status: manager.statusLine) }
        try applyFreshConfiguration()
        logger.info("configuration reloaded from \(options.configPath)")
        changed()
        returnStartUpGarbage()
    }

    /// Reads the configuration again and applies it; it is gone again when this returns.
    private func applyFreshConfiguration() throws(TickerError) {
        let fresh: DaemonConfig
        do {
            fresh = try configLoader.load(path: options.configPath, missingIsEmpty: !options.configExplicit)
        } catch {
            logger.error("reload: \(error); keeping the old configuration")
            throw .invalidConfig("\(error); the old configuration stays in force")
        }
        do {
            logSkipped(try manager.apply(config: fresh))
        } catch {
            logger.error("reload: \(options.configPath): \(error); keeping the old configuration")
            throw .invalidConfig("\(options.configPath): cannot be applied: \(error); the old configuration stays in force")
        }
    }

    /// Says which of the file's messages were skipped (their window closed for good), so a
    /// message that does not show is explained.
    private func logSkipped(_ ids: [String]) {
        for id in ids {
            logger.info("\(options.configPath): message '\(id)' skipped: its window has closed for good or can never open")
        }
    }

    // MARK: Timers

    /// Something happened: re-arm the wake-up timer and refresh STATUS=.
    private func changed() {
        watchSubscribers()
        if let next = manager.nextWake() {
            wakeTimer?.schedule(at: .realtime(microsecondsSinceEpoch: next))
        } else {
            wakeTimer?.cancel()
        }
        let status = manager.statusLine
        if status != lastStatus {
            lastStatus = status
            notifier.status(status)
        }
    }

    /// Watches for connections leaving the bus only while someone is subscribed, so an idle daemon
    /// is not woken each time some other client of the bus disconnects (every `busctl` call on a
    /// session bus ends with one). When the watch starts, each subscriber is checked once: one may
    /// have left before the match was in place.
    private func watchSubscribers() {
        guard let connection else { return }
        let subscribers = manager.subscriberNames
        if subscribers.isEmpty {
            ownerWatcher?.cancel()
            ownerWatcher = nil
            return
        }
        guard ownerWatcher == nil else { return }
        do {
            ownerWatcher = try NameOwnerWatcher.vanishedConnections(on: connection) { [unowned self] name in
                manager.forget(subscriber: name)
                changed()
            }
            for name in subscribers.sorted() where try connection.nameOwner(name) == nil {
                manager.forget(subscriber: name)
            }
        } catch {
            logger.warning("cannot watch subscribers leaving the bus: \(error)")
        }
    }

    private func wake() {
        if let failure = manager.tick() { logger.error("\(failure.message)") }
        changed()
    }

    private func startWatchdog() {
        guard let interval = notifier.watchdogInterval else { return }
        let timer = loop.makeTimer { [unowned self] in
            notifier.watchdogPing()
            watchdogTimer?.schedule(at: .after(.microseconds(interval)))
        }
        watchdogTimer = timer
        timer.schedule(at: .after(.microseconds(interval)))
    }
}

/// A start-up failure with a message for the log.
struct DaemonStartError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
