import DBus
import Foundation
import Testing
import TestSupport

/// The loop's timers, fd watches, signals and cross-thread work, each observed through its effect.
@Suite struct EventLoopTests {
    @Test func timersFireInDeadlineOrderNotInSchedulingOrder() throws {
        let loop = try EventLoop()
        var fired: [Int] = []
        let start = Deadline.now()
        let offsets = [30, 5, 20, 10, 0, 25]
        for (index, milliseconds) in offsets.enumerated() {
            loop.schedule(at: start.advanced(by: .milliseconds(milliseconds))) { fired.append(index) }
        }
        #expect(loop.run(timeout: .seconds(10)) { fired.count == offsets.count })
        let expected = offsets.enumerated().sorted { $0.element < $1.element }.map(\.offset)
        #expect(fired == expected)
    }

    @Test func aTimerNeverFiresBeforeItsDeadline() throws {
        let loop = try EventLoop()
        let deadline = Deadline.after(.milliseconds(50))
        var firedAt: Int64?
        loop.schedule(at: deadline) { firedAt = TimerClock.monotonic.nowNanoseconds }
        #expect(loop.run(timeout: .seconds(10)) { firedAt != nil })
        #expect((firedAt ?? 0) >= deadline.nanoseconds)
    }

    @Test func cancelledTimersDoNotFireAndReArmedOnesFireOnceAtTheNewDeadline() throws {
        let loop = try EventLoop()
        var cancelledFired = false
        var rearmedCount = 0
        var sentinel = false
        let cancelled = loop.schedule(at: .after(.milliseconds(10))) { cancelledFired = true }
        let rearmed = loop.schedule(at: .after(.milliseconds(10))) { rearmedCount += 1 }
        cancelled.cancel()
        rearmed.schedule(at: .after(.milliseconds(40)))
        #expect(rearmed.isScheduled)
        loop.schedule(at: .after(.milliseconds(80))) { sentinel = true }
        #expect(loop.run(timeout: .seconds(10)) { sentinel })
        #expect(!cancelledFired)
        #expect(rearmedCount == 1)
        #expect(!rearmed.isScheduled)
    }

    @Test func realtimeTimersFireOnTheWallClock() throws {
        let loop = try EventLoop()
        loop.onWallClockJump = {}
        let deadline = Deadline.after(.milliseconds(30), on: .realtime)
        var firedAt: Int64?
        loop.schedule(at: deadline) { firedAt = TimerClock.realtime.nowNanoseconds }
        #expect(loop.run(timeout: .seconds(10)) { firedAt != nil })
        #expect((firedAt ?? 0) >= deadline.nanoseconds)
    }

    @Test func aPastDeadlineFiresAtTheNextTurn() throws {
        let loop = try EventLoop()
        var fired = false
        loop.schedule(at: Deadline.realtime(microsecondsSinceEpoch: 0)) { fired = true }
        #expect(loop.run(timeout: .seconds(5)) { fired })
    }

    @Test func fdWatchesReportReadability() throws {
        let loop = try EventLoop()
        let fds = try ChildProcess.makePipe()
        defer { close(fds[0]); close(fds[1]) }
        var received = ""
        let watch = try loop.watch(fd: fds[0], events: .readable) { _ in
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fds[0], &buffer, 64)
            if count > 0 { received += String(decoding: buffer[0..<count], as: UTF8.self) }
        }
        loop.schedule(at: .after(.milliseconds(5))) { _ = write(fds[1], "ping", 4) }
        #expect(loop.run(timeout: .seconds(10)) { received == "ping" })
        watch.cancel()
        #expect(!watch.isActive)
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let thread = try LoopThread()
        defer { thread.stop() }
        let received = ResultBox<Int32>()
        let loop = thread.loop
        try thread.sync {
            try loop.onSignal(SIGUSR2) { signal in received.set(.success(signal)) }
            // raise() sends to the calling thread, where the signal is now blocked: it waits in
            // the signalfd instead of running its default action.
            raise(SIGUSR2)
        }
        let seen = try thread.sync { () -> Bool in
            loop.run(timeout: .seconds(10)) { (try? received.get()) != nil }
        }
        #expect(seen)
        #expect(try received.get() == SIGUSR2)
    }

    @Test func workFromOtherThreadsRunsOnTheLoopThreadAndStopEndsRun() throws {
        let thread = try LoopThread()
        let ids = ResultBox<[Int32]>()
        ids.set(.success([]))
        let loop = thread.loop
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            loop.execute {
                let seen = (try? ids.get()) ?? []
                ids.set(.success(seen + [Int32(loop.threadID)]))
            }
        }
        let count = try thread.sync { (try? ids.get())?.count ?? 0 }
        #expect(count == 8)
        #expect(try ids.get().allSatisfy { $0 == thread.threadID })
        thread.stop()
    }

    @Test func runWithTimeoutReturnsFalseWhenTheConditionNeverHolds() throws {
        let loop = try EventLoop()
        let start = Deadline.now()
        #expect(!loop.run(timeout: .milliseconds(50)) { false })
        #expect(start.advanced(by: .milliseconds(50)).hasPassed)
    }
}
