import DBus
import Foundation
import Testing
import TestSupport

/// Many concurrent peers all get their replies; an idle connection does not wake its thread.
@Suite(.serialized) struct LoadAndIdleTests {
    @Test func aThousandCallsFromTenConcurrentBusctlPeersAllGetTheirReplies() throws {
        let fixture = try BusFixture()
        let before = try fixture.read { $0.callCount }
        let script = """
        for i in $(seq 1 100); do
          busctl --address="$ADDRESS" -- call \(TestService.busName) \(TestService.pathText) \(TestService.interfaceName) EchoString s "peer$PEER-$i" || exit 1
        done
        """
        let peers = try (0..<10).map { peer in
            try ChildProcess("sh", ["-c", script], environment: ["ADDRESS": fixture.bus.address, "PEER": String(peer)])
        }
        for (peer, process) in peers.enumerated() {
            #expect(try process.wait(timeout: .seconds(300)) == 0, "\(process.standardError)")
            let expected = (1...100).map { "s \"peer\(peer)-\($0)\"" }
            #expect(process.standardOutput.split(separator: "\n").map(String.init) == expected)
        }
        #expect(try fixture.read { $0.callCount } == before + 1000)
    }

    /// voluntary_ctxt_switches of one thread of this process.
    static func voluntarySwitches(thread: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/task/\(thread)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
              let value = Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") else {
            throw TestSupportError("no voluntary_ctxt_switches in /proc/self/task/\(thread)/status")
        }
        return value
    }

    @Test func anIdleConnectionDoesNotWakeItsLoopThread() throws {
        let fixture = try BusFixture()
        // Let every start-up message settle: one more round trip through the bus and the loop.
        #expect(try fixture.busctlCall("EchoInt32", ["i", "1"]).status == 0)
        _ = try fixture.read { $0.callCount }
        let thread = fixture.thread.threadID
        // The loop thread has answered; wait until it is back asleep in epoll_wait (syscall 232,
        // or epoll_pwait 281 on x86-64), so the window does not catch it on its way there.
        let settleDeadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < settleDeadline {
            let syscall = (try? String(contentsOfFile: "/proc/self/task/\(thread)/syscall", encoding: .utf8)) ?? ""
            if syscall.hasPrefix("232 ") || syscall.hasPrefix("281 ") { break }
            Thread.sleep(forTimeInterval: 0.001)
        }
        let before = try Self.voluntarySwitches(thread: thread)
        // The measurement window itself, not a synchronisation.
        Thread.sleep(forTimeInterval: 5)
        let after = try Self.voluntarySwitches(thread: thread)
        print("idle loop thread: \(after - before) voluntary context switches in 5 s")
        #expect(after - before <= 1)
        // Still alive and answering after the idle period.
        #expect(try fixture.busctlCall("EchoInt32", ["i", "2"]).stdout == "i 2\n")
    }
}
