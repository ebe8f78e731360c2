import Foundation
import Testing
@testable import DBus

/// Wall-clock jumps: the realtime timerfd is armed with TFD_TIMER_CANCEL_ON_SET whenever someone
/// listens (so the kernel reports a clock step even with no timer pending), and a reported jump
/// re-arms the queue and calls ``EventLoop/onWallClockJump`` once. The kernel's side is read from
/// /proc/self/fdinfo; the jump itself is played through the loop, since tests never set the clock.
@Suite struct WallClockJumpTests {
    /// `settime flags` and `it_value` of a timerfd, from /proc/self/fdinfo.
    static func timerfdState(_ fd: Int32) throws -> (flags: Int, armed: Bool) {
        let info = try String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8)
        func field(_ name: String) -> String? {
            info.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        let flags = try #require(field("settime flags").flatMap { Int($0, radix: 8) }, "\(info)")
        let value = try #require(field("it_value"), "\(info)")
        return (flags, value != "(0, 0)")
    }

    /// TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET.
    static let absoluteCancelOnSet = 0o3

    @Test func listeningArmsCancelOnSetEvenWithNoTimerPending() throws {
        let loop = try EventLoop()
        let fd = try #require(loop.timerQueues[.realtime]?.fd)
        #expect(try Self.timerfdState(fd).armed == false)
        loop.onWallClockJump = {}
        let watching = try Self.timerfdState(fd)
        #expect(watching.flags == Self.absoluteCancelOnSet && watching.armed)
        // A realtime timer fires; with the queue empty again the fd stays armed to hear jumps.
        var fired = false
        loop.schedule(at: .after(.milliseconds(5), on: .realtime)) { fired = true }
        #expect(loop.run(timeout: .seconds(10)) { fired })
        let after = try Self.timerfdState(fd)
        #expect(after.flags == Self.absoluteCancelOnSet && after.armed)
        // Nobody listens any more: the idle fd is disarmed.
        loop.onWallClockJump = nil
        #expect(try Self.timerfdState(fd).armed == false)
    }

    @Test func aJumpCallsTheHandlerOnceFiresWhatIsDueAndKeepsTheRest() throws {
        let loop = try EventLoop()
        var jumps = 0
        loop.onWallClockJump = { jumps += 1 }
        var dueFired = false
        var laterFired = false
        loop.schedule(at: .realtime(microsecondsSinceEpoch: 0)) { dueFired = true }
        let later = loop.schedule(at: .after(.seconds(3600), on: .realtime)) { laterFired = true }
        // What the loop does when a read of the realtime timerfd fails with ECANCELED.
        loop.timersDue(.realtime, afterWallClockJump: true)
        #expect(jumps == 1 && dueFired && !laterFired)
        #expect(later.isScheduled)
        let fd = try #require(loop.timerQueues[.realtime]?.fd)
        let state = try Self.timerfdState(fd)
        #expect(state.flags == Self.absoluteCancelOnSet && state.armed)
        // An ordinary expiry is not a jump.
        var fired = false
        loop.schedule(at: .after(.milliseconds(5), on: .realtime)) { fired = true }
        #expect(loop.run(timeout: .seconds(10)) { fired })
        #expect(jumps == 1)
    }
}
