import CDBus
import Glibc
import Synchronization

/// One serial event loop on epoll, owned by the thread that created it.
///
/// Everything runs on that thread: fd watches (``watch(fd:events:handler:)``), one-shot timers on
/// the monotonic or the wall clock (``schedule(at:handler:)``), Unix signals
/// (``onSignal(_:handler:)``), and the libdbus connections bound to it. Only ``execute(_:)``,
/// ``stop()`` and ``wakeUp()`` may be called from other threads.
///
/// An idle loop sits in `epoll_wait` with no timeout: nothing wakes it unless an fd becomes
/// ready, a timer is due, a signal arrives or another thread hands it work.
public final class EventLoop: @unchecked Sendable {
    /// Work and a stop request handed over by other threads.
    private struct Inbox {
        var work: [@Sendable () -> Void] = []
        var stopRequested = false
    }

    let epollFD: Int32
    private let wakeFD: Int32
    private let owner: pthread_t
    /// The kernel thread id of the loop's thread (the `TID` of `/proc/self/task/TID`).
    public let threadID: Int32

    private var handlers: [UInt64: (IOEvents) -> Void] = [:]
    private var nextTag: UInt64 = 1
    private var soon: [() -> Void] = []
    private let inbox = Mutex(Inbox())

    var timerQueues: [TimerClock: TimerQueue] = [:]
    var scheduledTimers: [UInt64: LoopTimer] = [:]
    var nextTimerID: UInt64 = 1
    /// Called after the wall clock was set discontinuously (or the machine resumed from suspend):
    /// realtime deadlines now fall elsewhere, so the owner should re-evaluate its schedule.
    /// Setting it keeps a cancel-on-set realtime timerfd armed, which costs no wake-ups.
    public var onWallClockJump: (() -> Void)? {
        didSet { rearm(.realtime) }
    }

    var signalFD: Int32 = -1
    var signalHandlers: [Int32: (Int32) -> Void] = [:]

    /// Creates a loop owned by the calling thread.
    public init() throws {
        let epoll = cdbus_epoll_create()
        guard epoll >= 0 else { throw SystemCallError.last("epoll_create1") }
        let wake = cdbus_eventfd_create()
        guard wake >= 0 else {
            let error = SystemCallError.last("eventfd")
            close(epoll)
            throw error
        }
        epollFD = epoll
        wakeFD = wake
        owner = pthread_self()
        threadID = cdbus_gettid()
        do {
            for clock in [TimerClock.monotonic, .realtime] {
                let queue = try TimerQueue(clock: clock)
                timerQueues[clock] = queue
                _ = try addHandler(fd: queue.fd, events: .readable) { [unowned self] _ in
                    self.timerFDReady(clock)
                }
            }
            _ = try addHandler(fd: wake, events: .readable) { [unowned self] _ in
                self.drainInbox()
            }
        } catch {
            closeDescriptors()
            throw error
        }
    }

    deinit {
        closeDescriptors()
    }

    private func closeDescriptors() {
        for queue in timerQueues.values { close(queue.fd) }
        if signalFD >= 0 { close(signalFD) }
        close(wakeFD)
        close(epollFD)
    }

    // MARK: Threads

    /// Whether the caller runs on the loop's thread.
    public var isInLoopThread: Bool { pthread_equal(pthread_self(), owner) != 0 }

    /// Traps in debug builds when called off the loop's thread.
    public func assertInLoopThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(isInLoopThread, "EventLoop used off its thread", file: file, line: line)
    }

    /// Runs `work` on the loop's thread at its next iteration. Safe from any thread.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.work.append(work) }
        signalWakeFD()
    }

    /// Makes the running ``run()`` return after the current iteration (or the next ``run()``
    /// return at once, when none is running). Safe from any thread.
    public func stop() {
        inbox.withLock { $0.stopRequested = true }
        if !isInLoopThread { signalWakeFD() }
    }

    /// Interrupts a blocking `epoll_wait` from another thread; a no-op on the loop's own thread.
    public func wakeUp() {
        if !isInLoopThread { signalWakeFD() }
    }

    private func signalWakeFD() {
        _ = cdbus_eventfd_signal(wakeFD)
    }

    private func drainInbox() {
        cdbus_eventfd_drain(wakeFD)
        let work = inbox.withLock { inbox -> [@Sendable () -> Void] in
            let work = inbox.work
            inbox.work.removeAll()
            return work
        }
        for item in work { item() }
    }

    private var isStopRequested: Bool { inbox.withLock { $0.stopRequested } }

    // MARK: Deferred work

    /// Runs `work` on this thread once the current callback has returned, before the loop sleeps.
    public func runSoon(_ work: @escaping () -> Void) {
        assertInLoopThread()
        soon.append(work)
    }

    private func runSoonQueue() {
        while !soon.isEmpty {
            let batch = soon
            soon.removeAll()
            for item in batch { item() }
        }
    }

    // MARK: Running

    /// Runs until ``stop()`` is called.
    public func run() {
        assertInLoopThread()
        while !isStopRequested {
            iterate(timeoutMilliseconds: -1)
        }
        inbox.withLock { $0.stopRequested = false }
    }

    /// Runs until `condition` holds, ``stop()`` is called or `timeout` has passed; returns whether
    /// `condition` held. For clients waiting on one reply and for tests.
    @discardableResult
    public func run(timeout: Duration, until condition: () -> Bool) -> Bool {
        assertInLoopThread()
        let deadline = Deadline.after(timeout)
        while true {
            runSoonQueue()
            if condition() { return true }
            if isStopRequested { return false }
            let remaining = deadline.remainingNanoseconds
            if remaining <= 0 { return false }
            iterate(timeoutMilliseconds: Duration.nanoseconds(remaining).clampedMilliseconds)
        }
    }

    /// Runs until `deadline` (on either clock) has passed or ``stop()`` is called.
    public func run(until deadline: Deadline) {
        var reached = false
        let timer = schedule(at: deadline) { reached = true }
        while !reached && !isStopRequested {
            iterate(timeoutMilliseconds: -1)
        }
        timer.cancel()
    }

    /// One turn: deferred work, one `epoll_wait`, the ready handlers, deferred work again.
    private func iterate(timeoutMilliseconds: Int32) {
        runSoonQueue()
        let timeout = isStopRequested ? 0 : timeoutMilliseconds
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { tags in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { masks in
                guard let tagBase = tags.baseAddress, let maskBase = masks.baseAddress else { return }
                let count = cdbus_epoll_wait(epollFD, tagBase, maskBase, 64, timeout)
                guard count > 0 else { return }
                for index in 0..<Int(count) {
                    if let handler = handlers[tagBase[index]] {
                        handler(IOEvents(epollMask: maskBase[index]))
                    }
                }
            }
        }
        runSoonQueue()
    }

    // MARK: Descriptor registration

    func addHandler(fd: Int32, events: IOEvents, handler: @escaping (IOEvents) -> Void) throws -> UInt64 {
        let tag = nextTag
        nextTag += 1
        guard cdbus_epoll_ctl(epollFD, 1, fd, events.epollMask, tag) == 0 else {
            throw SystemCallError.last("epoll_ctl(ADD)")
        }
        handlers[tag] = handler
        return tag
    }

    func modifyHandler(tag: UInt64, fd: Int32, events: IOEvents) throws {
        guard cdbus_epoll_ctl(epollFD, 3, fd, events.epollMask, tag) == 0 else {
            throw SystemCallError.last("epoll_ctl(MOD)")
        }
    }

    func removeHandler(tag: UInt64, fd: Int32) {
        handlers[tag] = nil
        _ = cdbus_epoll_ctl(epollFD, 2, fd, 0, tag)
    }

    /// Calls `handler` on this thread whenever `fd` is ready for `events` (errors and hang-ups are
    /// always reported). The watch lasts until ``FDWatch/cancel()``; the loop never closes `fd`.
    public func watch(fd: Int32, events: IOEvents, handler: @escaping (IOEvents) -> Void) throws -> FDWatch {
        assertInLoopThread()
        let tag = try addHandler(fd: fd, events: events, handler: handler)
        return FDWatch(loop: self, fd: fd, tag: tag, events: events)
    }
}
