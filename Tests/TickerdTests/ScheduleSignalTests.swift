import DBus
import Foundation
import Testing
import TestSupport

/// Messages come and go on time: MessageStarted/MessageEnded at the window's boundaries, seen by
/// the test's own client and by dbus-monitor, with the channel's properties following.
@Suite(.serialized) struct ScheduleSignalTests {
    static let managerInterface = DaemonFixture.managerInterface

    @Test func anAbsoluteWindowStartsAndEndsOnTime() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.managerInterface)
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='\(Self.managerInterface)'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("NameAcquired") })

        let start = DaemonFixture.now() + 800_000
        let end = start + 700_000
        let id = try fixture.post("Build running", options: ["start", "x", "\(start)", "end", "x", "\(end)"])
        #expect(try fixture.property("main", "Messages").value as? [String] == [])

        #expect(watcher.waitFor { signals in signals.contains { $0.member == "MessageEnded" } })
        let started = try #require(watcher.signals.first { $0.member == "MessageStarted" })
        let ended = try #require(watcher.signals.first { $0.member == "MessageEnded" })
        #expect(started.arguments == [.string("main"), .string(id)])
        #expect(ended.arguments == [.string("main"), .string(id), .uint32(1)])
        // On time: never early, and within a generous margin after the boundary.
        #expect(started.arrivedAt >= start && started.arrivedAt < start + 250_000, "started \(started.arrivedAt - start) µs after the boundary")
        #expect(ended.arrivedAt >= end && ended.arrivedAt < end + 250_000, "ended \(ended.arrivedAt - end) µs after the boundary")
        // The independent peer saw the same signals.
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("member=MessageStarted") && $0.contains("member=MessageEnded") })
        // The window has passed for good: the message is dropped.
        let list = try fixture.call("List", "s", [""])
        #expect((list.data.first as? [Any])?.isEmpty == true)
        #expect(try fixture.property("main", "Text").value as? String == "")
    }

    @Test func aTimeToLiveEndsTheMessage() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.managerInterface)
        let posted = DaemonFixture.now()
        let id = try fixture.post("ten minutes, sped up", options: ["ttl", "x", "600000"])
        #expect(try fixture.property("main", "Messages").value as? [String] == [id])
        #expect(watcher.waitFor { $0.contains { $0.member == "MessageEnded" } })
        let ended = try #require(watcher.signals.first { $0.member == "MessageEnded" })
        #expect(ended.arrivedAt >= posted + 600_000)
        #expect(try fixture.property("main", "Messages").value as? [String] == [])
    }

    @Test func aRecurringWindowComesBackEachOccurrence() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.managerInterface)
        // Every 2 seconds, for 1 second, in UTC (systemd calendar syntax).
        let id = try fixture.post("blink", options: ["calendar", "s", "*:*:0/2 UTC", "duration", "x", "1000000"])
        #expect(watcher.waitFor(timeout: .seconds(15)) { signals in
            signals.filter { $0.member == "MessageStarted" }.count >= 3 && signals.filter { $0.member == "MessageEnded" }.count >= 2
        })
        // A start right at posting may fall anywhere in an open window; every later one is a boundary.
        let firstEnd = try #require(watcher.signals.first { $0.member == "MessageEnded" })
        let starts = watcher.signals.filter { $0.member == "MessageStarted" && $0.arrivedAt > firstEnd.arrivedAt }
        #expect(!starts.isEmpty)
        for start in starts {
            #expect(start.arguments.last == .string(id))
            // Each start lands just after an even second.
            let intoSecond = start.arrivedAt % 2_000_000
            #expect(intoSecond < 250_000, "started \(intoSecond) µs into the 2 s period")
        }
        let ends = watcher.signals.filter { $0.member == "MessageEnded" }
        #expect(ends.allSatisfy { $0.arguments.last == .uint32(1) })
    }

    @Test func removeAndReplaceEndWithTheirReasons() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.managerInterface)
        _ = try fixture.post("old", options: ["id", "s", "status"])
        _ = try fixture.post("new", options: ["id", "s", "status"])
        _ = try fixture.call("Remove", "s", ["status"])
        #expect(watcher.waitFor { $0.filter { $0.member == "MessageEnded" }.count >= 2 })
        let reasons = watcher.signals.filter { $0.member == "MessageEnded" }.map { $0.arguments.last }
        #expect(reasons == [.uint32(3), .uint32(2)])
        #expect(watcher.signals.filter { $0.member == "MessageStarted" }.count == 2)
    }
}
