import Foundation
import Testing
import TestSupport

/// Leases: a killed service's messages lapse within one lease; a restarted one adopts its ids.
@Suite(.serialized) struct LeaseTests {
    static let config = """
        lease = "2s"

        [[source]]
        name = "hello"
        type = "command"
        command = "echo hello"
        interval = "300ms"
        template = "{output}"
        """

    @Test func messagesOfAKilledServiceEndWithinOneLease() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "hello").map(\.text) == ["hello"] })
        // Renewed while current: its end keeps moving and stays within a lease of now.
        let firstEnd = try #require(try fixture.messages(of: "hello").first?.end)
        #expect(try fixture.wait(.seconds(3)) { (try fixture.messages(of: "hello").first?.end ?? 0) > firstEnd })
        let now = Int64(Date().timeIntervalSince1970 * 1e6)
        #expect(try #require(try fixture.messages(of: "hello").first?.end) <= now + 2_000_000)

        try fixture.killService()
        let killed = Int64(Date().timeIntervalSince1970 * 1e6)
        // What tickerd holds after the kill ends within one lease of it (the last renewal's end),
        // and tickerd ends it then by itself.
        if let end = try fixture.messages(of: "hello").first?.end {
            #expect(end <= killed + 2_000_000, "ends \(end - killed) µs after the kill, lease 2 s")
        }
        #expect(try fixture.wait(.seconds(5)) { try fixture.messages(of: "hello").isEmpty })
    }

    @Test func aRestartedTickerdIsFoundAgainAndItsMessagesRenewed() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "hello").count == 1 })
        try fixture.daemon.restart()
        let restartedEnd = try #require(try fixture.messages(of: "hello").first?.end)
        // The service sees tickerd's name come back, adopts the stored message and renews it.
        #expect(try fixture.wait(.seconds(3)) { (try fixture.messages(of: "hello").first?.end ?? 0) > restartedEnd })
        #expect(try fixture.messages(of: "hello").map(\.id) == ["src/hello/output"])
        #expect(fixture.service?.hasExited == false)
    }

    @Test func aRestartedServiceAdoptsItsMessagesWithoutAFlicker() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "hello").count == 1 })
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address,
            "type='signal',interface='io.github.tickerd.Ticker1.Manager'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })

        try fixture.killService()
        try fixture.startService()
        // The new service lists, adopts, and renews: a renewal pushes the end past the old one.
        let oldEnd = try #require(try fixture.messages(of: "hello").first?.end)
        #expect(try fixture.wait(.seconds(3)) { (try fixture.messages(of: "hello").first?.end ?? 0) > oldEnd })
        #expect(try fixture.messages(of: "hello").map(\.id) == ["src/hello/output"])
        // Over a whole lease: never a second copy, never an end or a new start of it.
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            #expect(try fixture.messages(of: "hello").count == 1)
        }
        #expect(!monitor.standardOutput.contains("src/hello/output"), "\(monitor.standardOutput)")
    }
}
