import CDBus

/// Drives one libdbus connection from an ``EventLoop``: libdbus watches become epoll
/// registrations (one per fd, merging libdbus's separate read and write watches), libdbus
/// timeouts become monotonic loop timers, and queued incoming messages are dispatched on the
/// loop (while `DBUS_DISPATCH_DATA_REMAINS`), never from inside a libdbus callback. A long queue
/// is dispatched in slices of ``dispatchSlice``: between slices the loop polls, so timers and
/// other descriptors get their turn (a burst of slow calls cannot starve a 30 fps timer).
final class LibdbusEventBridge {
    private unowned let loop: EventLoop
    private let connection: OpaquePointer
    private var watchesByFD: [Int32: [OpaquePointer]] = [:]
    private var fdOfWatch: [OpaquePointer: Int32] = [:]
    private var loopWatches: [Int32: FDWatch] = [:]
    private var timeouts: [OpaquePointer: LoopTimer] = [:]
    private var dispatchScheduled = false
    /// Continues a dispatch that used up its slice, after the loop has polled once.
    private var continuation: LoopTimer?
    /// The longest one dispatch runs before letting the loop poll.
    static let dispatchSlice = Duration.milliseconds(5)
    private(set) var isInstalled = false

    init(loop: EventLoop, connection: OpaquePointer) {
        self.loop = loop
        self.connection = connection
    }

    private static func bridge(_ data: UnsafeMutableRawPointer?) -> LibdbusEventBridge? {
        guard let data else { return nil }
        return Unmanaged<LibdbusEventBridge>.fromOpaque(data).takeUnretainedValue()
    }

    /// Hooks the connection to the loop. The bridge must stay alive until ``uninstall()``.
    func install() throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        isInstalled = true
        let watchesSet = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let bridge = LibdbusEventBridge.bridge(data) else { return 0 }
                bridge.addWatch(watch)
                return 1
            },
            { watch, data in
                guard let watch, let bridge = LibdbusEventBridge.bridge(data) else { return }
                bridge.removeWatch(watch)
            },
            { watch, data in
                guard let watch, let bridge = LibdbusEventBridge.bridge(data) else { return }
                bridge.refreshWatch(watch)
            },
            me, nil)
        let timeoutsSet = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let bridge = LibdbusEventBridge.bridge(data) else { return 0 }
                bridge.addTimeout(timeout)
                return 1
            },
            { timeout, data in
                guard let timeout, let bridge = LibdbusEventBridge.bridge(data) else { return }
                bridge.removeTimeout(timeout)
            },
            { timeout, data in
                guard let timeout, let bridge = LibdbusEventBridge.bridge(data) else { return }
                bridge.refreshTimeout(timeout)
            },
            me, nil)
        dbus_connection_set_dispatch_status_function(
            connection,
            { _, status, data in
                guard status == DBUS_DISPATCH_DATA_REMAINS, let bridge = LibdbusEventBridge.bridge(data) else { return }
                bridge.scheduleDispatch()
            },
            me, nil)
        dbus_connection_set_wakeup_main_function(
            connection,
            { data in LibdbusEventBridge.bridge(data)?.loop.wakeUp() },
            me, nil)
        guard watchesSet != 0, timeoutsSet != 0 else {
            uninstall()
            throw DBusError.noMemory
        }
        scheduleDispatch()
    }

    /// Unhooks the connection; libdbus calls the remove functions for what is still registered.
    func uninstall() {
        guard isInstalled else { return }
        isInstalled = false
        _ = dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        _ = dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(connection, nil, nil, nil)
        for watch in loopWatches.values { watch.cancel() }
        loopWatches.removeAll()
        watchesByFD.removeAll()
        fdOfWatch.removeAll()
        for timer in timeouts.values { timer.cancel() }
        timeouts.removeAll()
        continuation?.cancel()
        continuation = nil
        dispatchScheduled = false
    }

    // MARK: Watches

    private func addWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        guard fd >= 0 else { return }
        fdOfWatch[watch] = fd
        watchesByFD[fd, default: []].append(watch)
        refresh(fd: fd)
    }

    private func removeWatch(_ watch: OpaquePointer) {
        guard let fd = fdOfWatch.removeValue(forKey: watch) else { return }
        watchesByFD[fd]?.removeAll { $0 == watch }
        if watchesByFD[fd]?.isEmpty == true { watchesByFD[fd] = nil }
        refresh(fd: fd)
    }

    private func refreshWatch(_ watch: OpaquePointer) {
        guard let fd = fdOfWatch[watch] else { return }
        refresh(fd: fd)
    }

    /// One epoll registration per fd, asking for the union of its enabled watches' flags;
    /// none while no watch is enabled (so a hung-up socket cannot spin the loop).
    private func refresh(fd: Int32) {
        var events: IOEvents = []
        var anyEnabled = false
        for watch in watchesByFD[fd] ?? [] where dbus_watch_get_enabled(watch) != 0 {
            anyEnabled = true
            let flags = dbus_watch_get_flags(watch)
            if flags & CDBUS_WATCH_READABLE != 0 { events.insert(.readable) }
            if flags & CDBUS_WATCH_WRITABLE != 0 { events.insert(.writable) }
        }
        if !anyEnabled {
            loopWatches.removeValue(forKey: fd)?.cancel()
        } else if let existing = loopWatches[fd] {
            try? existing.update(events: events)
        } else {
            loopWatches[fd] = try? loop.watch(fd: fd, events: events) { [unowned self] ready in
                self.handle(fd: fd, ready: ready)
            }
        }
    }

    private func handle(fd: Int32, ready: IOEvents) {
        for watch in watchesByFD[fd] ?? [] {
            guard fdOfWatch[watch] == fd, dbus_watch_get_enabled(watch) != 0 else { continue }
            let wanted = dbus_watch_get_flags(watch)
            var flags: UInt32 = 0
            if ready.contains(.readable) && wanted & CDBUS_WATCH_READABLE != 0 { flags |= CDBUS_WATCH_READABLE }
            if ready.contains(.writable) && wanted & CDBUS_WATCH_WRITABLE != 0 { flags |= CDBUS_WATCH_WRITABLE }
            if ready.contains(.error) { flags |= CDBUS_WATCH_ERROR }
            if ready.contains(.hangup) { flags |= CDBUS_WATCH_HANGUP }
            if flags != 0 { _ = dbus_watch_handle(watch, flags) }
        }
        scheduleDispatch()
    }

    // MARK: Timeouts

    private func addTimeout(_ timeout: OpaquePointer) {
        let timer = loop.makeTimer { [unowned self] in self.fire(timeout) }
        timeouts[timeout] = timer
        refreshTimeout(timeout)
    }

    private func removeTimeout(_ timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
    }

    /// (Re)starts the interval from now when enabled, as libdbus expects of a toggled timeout.
    private func refreshTimeout(_ timeout: OpaquePointer) {
        guard let timer = timeouts[timeout] else { return }
        if dbus_timeout_get_enabled(timeout) != 0 {
            let interval = Duration.milliseconds(Int64(dbus_timeout_get_interval(timeout)))
            timer.schedule(at: .after(interval))
        } else {
            timer.cancel()
        }
    }

    private func fire(_ timeout: OpaquePointer) {
        _ = dbus_timeout_handle(timeout)
        if let timer = timeouts[timeout], !timer.isScheduled, dbus_timeout_get_enabled(timeout) != 0 {
            refreshTimeout(timeout)
        }
        scheduleDispatch()
    }

    // MARK: Dispatch

    func scheduleDispatch() {
        guard isInstalled, !dispatchScheduled,
              dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS
        else { return }
        dispatchScheduled = true
        loop.runSoon { [weak self] in self?.dispatch() }
    }

    private func dispatch() {
        dispatchScheduled = false
        let slice = Deadline.after(Self.dispatchSlice)
        while isInstalled, dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {
            guard slice.hasPassed else { continue }
            // Let the loop poll (due timers run) before the rest of the queue.
            dispatchScheduled = true
            let timer = continuation ?? loop.makeTimer { [weak self] in self?.dispatch() }
            continuation = timer
            timer.schedule(at: .now())
            return
        }
    }
}
