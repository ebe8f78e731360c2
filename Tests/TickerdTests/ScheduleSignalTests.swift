import DBus
import Foundation
import Testing
import TestSupport

/// Messages come and go on time: MessageStarted/MessageEnded at the window's boundaries, seen by
/// the test's own client and by dbus-monitor, with the channel's properties following.
@Suite(.serialized) struct ScheduleSignalTests {
    static let managerInterface = DaemonFixture.managerInterface

    /// How late a signal may arrive after its boundary. The daemon arms an absolute CLOCK_REALTIME
    /// timerfd for the boundary itself (checked exactly below), so on a quiet machine the signal
    /// arrives within a few milliseconds (the figures are printed; 1.4–2.0 ms alone here). The
    /// bound leaves room for the whole suite running in parallel on a shared 2-core machine, under
    /// the sanitizers too (567 ms seen there), and stays under a second: a window that opens or
    /// closes on the wrong second still fails.
    static let lateness: Int64 = 900_000

    /// The instants at which the daemon's CLOCK_REALTIME timerfd may be set to expire, from
    /// /proc/PID/fdinfo: the kernel reports the time left at some moment between the two clock
    /// reads around the read, so the deadline lies in the returned range. Nil when it is disarmed.
    static func realtimeDeadline(pid: Int32) throws -> ClosedRange<Int64>? {
        let directory = "/proc/\(pid)/fdinfo"
        for fd in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let before = DaemonFixture.now()
            guard let info = try? String(contentsOfFile: "\(directory)/\(fd)", encoding: .utf8) else { continue }
            let after = DaemonFixture.now()
            var fields: [String: String] = [:]
            for line in info.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard fields["clockid"] == "0", let value = fields["it_value"] else { continue }
            let numbers = value.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            guard numbers.count == 2 else { continue }
            let left = numbers[0] * 1_000_000 + numbers[1] / 1_000
            return left == 0 ? nil : (before + left)...(after + left + 2)
        }
        return nil
    }

    /// The changed properties of the Channel interface in a PropertiesChanged signal.
    static func channelChanges(_ signal: BusClient.Received) -> [String: DBusValue]? {
        guard signal.member == "PropertiesChanged", signal.arguments.count == 3,
              signal.arguments[0].stringValue == DaemonFixture.channelInterface else { return nil }
        return signal.arguments[1].vardictValue
    }

    /// Whether `signal` is a channel's PropertiesChanged that names `Messages` (by name only).
    static func namesMessages(_ signal: BusClient.Received) -> Bool {
        channelChanges(signal) != nil && signal.arguments[2].stringArrayValue?.contains("Messages") == true
    }

    @Test func anAbsoluteWindowStartsAndEndsOnTime() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.managerInterface)
        try watcher.record(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='\(Self.managerInterface)'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("NameAcquired") })

        let start = DaemonFixture.now() + 800_000
        let end = start + 700_000
        let id = try fixture.post("Build running", options: ["start", "x", "\(start)", "end", "x", "\(end)"])
        #expect(try fixture.property("main", "Messages").value as? [String] == [])
        // Nothing is due before the start, so the daemon's wall-clock timer is set for it exactly.
        let armed = try #require(try Self.realtimeDeadline(pid: fixture.daemon.process.pid), "no realtime timer armed")
        #expect(armed.contains(start), "the timer is armed for \(armed.lowerBound - start)…\(armed.upperBound - start) µs from the start")

        // Wait for MessageEnded and for the channel's properties to follow it.
        #expect(watcher.waitFor { signals in
            signals.contains { $0.member == "MessageEnded" }
                && signals.contains { $0.arrivedAt >= end && Self.namesMessages($0) }
        })
        let started = try #require(watcher.signals.first { $0.member == "MessageStarted" })
        let ended = try #require(watcher.signals.first { $0.member == "MessageEnded" })
        #expect(started.arguments == [.string("main"), .string(id)])
        #expect(ended.arguments == [.string("main"), .string(id), .uint32(1)])
        print("MessageStarted \(started.arrivedAt - start) µs and MessageEnded \(ended.arrivedAt - end) µs after their boundaries")
        // On time: never early, and within a few milliseconds of the boundary.
        #expect(started.arrivedAt >= start && started.arrivedAt < start + Self.lateness, "started \(started.arrivedAt - start) µs after the boundary")
        #expect(ended.arrivedAt >= end && ended.arrivedAt < end + Self.lateness, "ended \(ended.arrivedAt - end) µs after the boundary")

        // The channel's Text, Messages and Timeline follow at each boundary, in PropertiesChanged
        // (Messages by name only).
        let changes = watcher.signals.filter(Self.namesMessages).compactMap { signal in
            Self.channelChanges(signal).map { (signal.arrivedAt, $0) }
        }
        let opened = try #require(changes.first { $0.1["Text"]?.unwrappingVariant.stringValue == "Build running" },
                                  "no PropertiesChanged(Text, Messages) when the window opened: \(changes)")
        #expect(opened.0 >= start && opened.0 < start + Self.lateness, "Messages changed \(opened.0 - start) µs after the start")
        let openedTape = opened.1["Timeline"]?.unwrappingVariant.vardictValue?["tape"]?.unwrappingVariant.stringValue
        #expect(openedTape?.hasPrefix("Build running") == true, "Timeline at the start: \(String(describing: openedTape))")
        let closed = try #require(changes.first { $0.0 >= end && $0.1["Text"]?.unwrappingVariant.stringValue == "" },
                                  "no PropertiesChanged(Text, Messages) when the window closed: \(changes)")
        #expect(closed.0 < end + Self.lateness, "Messages changed \(closed.0 - end) µs after the end")
        // The visible tape leaves seamlessly: the Timeline announces the tape without the message
        // as `next` (it takes over at `switch`), or shows it at once when nothing was on screen.
        let closedTimeline = try #require(closed.1["Timeline"]?.unwrappingVariant.vardictValue)
        let following = (closedTimeline["next"] ?? closedTimeline["tape"])?.unwrappingVariant.stringValue
        #expect(following?.contains("Build running") == false, "Timeline at the end: \(closedTimeline)")

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
        // The TTL runs from the daemon's receipt of Post; List gives the end it computed.
        let listed = try fixture.call("List", "s", [""])
        let fields = ((listed.data.first as? [Any])?.first as? [Any])?.last as? [String: Any]
        let end = try #require(((fields?["end"] as? [String: Any])?["data"] as? NSNumber)?.int64Value, "\(listed.data)")
        #expect(end >= posted + 600_000)
        #expect(watcher.waitFor { $0.contains { $0.member == "MessageEnded" } })
        let ended = try #require(watcher.signals.first { $0.member == "MessageEnded" })
        #expect(ended.arguments == [.string("main"), .string(id), .uint32(1)])
        #expect(ended.arrivedAt >= end && ended.arrivedAt < end + Self.lateness, "ended \(ended.arrivedAt - end) µs after posted + ttl")
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
            #expect(intoSecond < Self.lateness, "started \(intoSecond) µs into the 2 s period")
        }
        let ends = watcher.signals.filter { $0.member == "MessageEnded" }
        #expect(ends.allSatisfy { $0.arguments.last == .uint32(1) })
        // Each end lands just after an odd second (start + 1 s).
        for end in ends {
            let intoPeriod = (end.arrivedAt - 1_000_000) % 2_000_000
            #expect(intoPeriod >= 0 && intoPeriod < Self.lateness, "ended \(intoPeriod) µs after an odd second")
        }
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
