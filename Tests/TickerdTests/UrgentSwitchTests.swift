import Foundation
import Testing
import TestSupport

/// Content changes over the bus: an ordinary message joins at the seam (the Timeline announces it
/// as `next` with its `switch` position), an urgent one interrupts at once (no `next`), whether it
/// is posted or its scheduled window opens.
@Suite struct UrgentSwitchTests {
    static let long = "The first message, long enough to keep scrolling across a panel for a good while"

    /// A daemon whose main channel moves at 1 cell a second, so a pending change stays out of
    /// view (its seam is a whole tape width ahead) for the few seconds a test takes.
    static func slowDaemon() throws -> DaemonFixture {
        let fixture = try DaemonFixture()
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "speed", "d", "1"])
        return fixture
    }

    @Test func anOrdinaryPostWaitsForTheSeamAndAnUrgentOneSwitchesAtOnce() throws {
        let fixture = try Self.slowDaemon()
        _ = try fixture.post(Self.long)
        let first = try fixture.property("main", "Timeline").dictionary
        #expect((first["tape"] as? String)?.hasPrefix(Self.long) == true)
        #expect(first["next"] == nil, "nothing was visible, so the first message needs no seam: \(first)")

        _ = try fixture.post("second")
        let waiting = try fixture.property("main", "Timeline").dictionary
        #expect((waiting["tape"] as? String)?.contains("second") == false, "\(waiting)")
        #expect((waiting["next"] as? String)?.contains("second") == true, "\(waiting)")
        #expect(waiting["switch"] as? Double != nil, "\(waiting)")

        _ = try fixture.post("Fire alarm", options: ["urgent", "b", "true"])
        let interrupted = try fixture.property("main", "Timeline").dictionary
        #expect(interrupted["next"] == nil && interrupted["switch"] == nil, "\(interrupted)")
        let tape = try #require(interrupted["tape"] as? String)
        #expect(tape.contains("Fire alarm") && tape.contains("second") && tape.contains(Self.long), "\(tape)")
        #expect(try fixture.property("main", "Text").value as? String == "\(Self.long)  •  second  •  Fire alarm")
    }

    @Test func anUrgentMessageWhoseWindowOpensInterruptsAtTheBoundary() throws {
        let fixture = try Self.slowDaemon()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: DaemonFixture.managerInterface, member: "MessageStarted")
        _ = try fixture.post(Self.long)
        let start = DaemonFixture.now() + 400_000
        let ordinary = try fixture.post("scheduled, ordinary", options: ["start", "x", "\(start)"])
        let urgent = try fixture.post("scheduled, urgent", options: ["start", "x", "\(start + 2_000_000)", "urgent", "b", "true"])

        #expect(watcher.waitFor { $0.contains { $0.arguments.last == .string(ordinary) } })
        let joining = try fixture.property("main", "Timeline").dictionary
        #expect((joining["next"] as? String)?.contains("scheduled, ordinary") == true, "\(joining)")
        #expect((joining["tape"] as? String)?.contains("scheduled, ordinary") == false, "\(joining)")

        #expect(watcher.waitFor { $0.contains { $0.arguments.last == .string(urgent) } })
        let interrupted = try fixture.property("main", "Timeline").dictionary
        #expect(interrupted["next"] == nil, "\(interrupted)")
        #expect((interrupted["tape"] as? String)?.contains("scheduled, urgent") == true, "\(interrupted)")
        #expect((interrupted["tape"] as? String)?.contains("scheduled, ordinary") == true, "\(interrupted)")
    }
}
