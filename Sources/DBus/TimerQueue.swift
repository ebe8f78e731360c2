import CDBus
import Glibc

/// The armed timers of one clock, earliest first, behind one timerfd armed for the earliest.
final class TimerQueue {
    struct Entry {
        var nanoseconds: Int64
        var id: UInt64
    }

    let clock: TimerClock
    let fd: Int32
    /// Sorted by (nanoseconds, id).
    private(set) var entries: [Entry] = []
    /// What the timerfd is armed for now (`nil`: unknown, must be set).
    private var armedFor: Int64?

    init(clock: TimerClock) throws {
        self.clock = clock
        let fd = cdbus_timerfd_create(clock == .realtime ? 1 : 0)
        guard fd >= 0 else { throw SystemCallError.last("timerfd_create") }
        self.fd = fd
    }

    func insert(id: UInt64, at nanoseconds: Int64) {
        let entry = Entry(nanoseconds: nanoseconds, id: id)
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            let probe = entries[mid]
            if (probe.nanoseconds, probe.id) < (nanoseconds, id) { low = mid + 1 } else { high = mid }
        }
        entries.insert(entry, at: low)
    }

    func remove(id: UInt64) {
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries.remove(at: index)
        }
    }

    /// Removes and returns the earliest entry when it is due at `now`.
    func popDue(now: Int64) -> UInt64? {
        guard let first = entries.first, first.nanoseconds <= now else { return nil }
        entries.removeFirst()
        return first.id
    }

    /// Forgets what the fd is armed for (after a cancel-on-set notification disarmed it).
    func invalidateArming() { armedFor = nil }

    /// Arms the timerfd for the earliest entry; realtime queues that must notice clock jumps
    /// stay armed (far in the future) with TFD_TIMER_CANCEL_ON_SET even when empty.
    func rearm(watchClockJumps: Bool) {
        let target: Int64
        if let first = entries.first {
            target = max(first.nanoseconds, 1)
        } else if clock == .realtime && watchClockJumps {
            target = Int64.max
        } else {
            target = 0
        }
        guard target != armedFor else { return }
        let seconds = target == Int64.max ? Int64.max : target / 1_000_000_000
        let nanos = target == Int64.max ? 0 : target % 1_000_000_000
        if cdbus_timerfd_arm(fd, seconds, nanos, clock == .realtime ? 1 : 0) == 0 {
            armedFor = target
        } else {
            armedFor = nil
        }
    }
}

extension EventLoop {
    /// A timer that calls `handler` on this thread when due; arm it with ``LoopTimer/schedule(at:)``.
    public func makeTimer(handler: @escaping () -> Void) -> LoopTimer {
        assertInLoopThread()
        let timer = LoopTimer(loop: self, id: nextTimerID, handler: handler)
        nextTimerID += 1
        return timer
    }

    /// Calls `handler` once at `deadline`. Keep the result to cancel or re-arm it; dropping it does
    /// not cancel it. Realtime deadlines are wall-clock times and follow clock changes.
    @discardableResult
    public func schedule(at deadline: Deadline, handler: @escaping () -> Void) -> LoopTimer {
        let timer = makeTimer(handler: handler)
        timer.schedule(at: deadline)
        return timer
    }

    func arm(_ timer: LoopTimer, at deadline: Deadline) {
        if let old = timer.deadline {
            timerQueues[old.clock]?.remove(id: timer.id)
            if old.clock != deadline.clock { rearm(old.clock) }
        }
        timer.deadline = deadline
        scheduledTimers[timer.id] = timer
        timerQueues[deadline.clock]?.insert(id: timer.id, at: deadline.nanoseconds)
        rearm(deadline.clock)
    }

    func disarm(_ timer: LoopTimer) {
        guard let old = timer.deadline else { return }
        timer.deadline = nil
        scheduledTimers[timer.id] = nil
        timerQueues[old.clock]?.remove(id: timer.id)
        rearm(old.clock)
    }

    func rearm(_ clock: TimerClock) {
        timerQueues[clock]?.rearm(watchClockJumps: onWallClockJump != nil)
    }

    /// The timerfd of `clock` is readable: fire what is due; report a wall-clock jump (a read
    /// that failed with ECANCELED). One read takes every expiry; only a jump, which the kernel
    /// reports before the expiries and reports once, is followed by a second read.
    func timerFDReady(_ clock: TimerClock) {
        guard let queue = timerQueues[clock] else { return }
        var jumped = false
        while cdbus_timerfd_read(queue.fd) == 1 { jumped = true }
        timersDue(clock, afterWallClockJump: jumped)
    }

    /// Fires the timers of `clock` that are due, re-arms its timerfd and, when the wall clock
    /// `jumped`, tells ``onWallClockJump`` (split from ``timerFDReady(_:)`` so tests can play a
    /// jump, which they cannot cause: setting the clock is not theirs to do).
    func timersDue(_ clock: TimerClock, afterWallClockJump jumped: Bool) {
        guard let queue = timerQueues[clock] else { return }
        queue.invalidateArming()
        let now = clock.nowNanoseconds
        while let id = queue.popDue(now: now) {
            guard let timer = scheduledTimers.removeValue(forKey: id) else { continue }
            timer.deadline = nil
            timer.handler()
        }
        rearm(clock)
        if jumped, let onWallClockJump {
            onWallClockJump()
        }
    }
}
