import Foundation
import Testing
import TestSupport

/// `tickerctl timeline`: the long poll pixel clients without a D-Bus client use (the Plasma widget).
@Suite(.serialized) struct TimelineCommandTests {
    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func printsTheChannelsTimelineAsBusctlReadsIt() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "--id", "a", "hello from the timeline"])
        let state = try object(try fixture.ok(["timeline"]))
        #expect(state["state"] as? String == "online")
        #expect(state["messages"] as? Int == 1)
        #expect(state["text"] as? String == "hello from the timeline")
        let timeline = try #require(state["timeline"] as? [String: Any])
        let property = try #require(try fixture.property("Timeline") as? [String: Any])
        for key in ["tape", "mode", "width", "speed", "anchor", "position"] {
            let printed = timeline[key].map { "\($0)" }
            let read = (property[key] as? [String: Any])?["data"].map { "\($0)" }
            #expect(printed != nil && printed == read, "\(key): printed \(String(describing: printed)), busctl \(String(describing: read))")
        }
        #expect((state["digest"] as? String)?.count == 16)
        let missing = try object(try fixture.ok(["timeline", "--channel", "nowhere"]))
        #expect(missing["state"] as? String == "missing" && missing["timeline"] is NSNull)
    }

    @Test func afterADigestItWaitsForAChangeThenPrintsIt() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "--id", "a", "first"])
        let first = try object(try fixture.ok(["timeline"]))
        let digest = try #require(first["digest"] as? String)
        // The same state again: it waits. A different digest: it prints at once.
        let stale = try object(try fixture.ok(["timeline", "--after", "0000000000000000"]))
        #expect(stale["digest"] as? String == digest)
        let poll = try ChildProcess(
            CLIFixture.tickerctl, ["--bus", fixture.address, "timeline", "--after", digest, "--columns", "33"])
        // Still waiting once the daemon has seen it call (it reads the channel's properties first).
        #expect(!poll.waitForOutput(timeout: .milliseconds(300)) { !$0.isEmpty })
        _ = try fixture.ok(["post", "--id", "b", "second"])
        #expect(try poll.wait(timeout: .seconds(20)) == 0)
        let changed = try object(poll.standardOutput)
        #expect(changed["messages"] as? Int == 2)
        #expect(changed["digest"] as? String != digest)
    }

    @Test func aDaemonLeavingEndsTheWaitWithOffline() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "one"])
        let digest = try #require(try object(try fixture.ok(["timeline"]))["digest"] as? String)
        let poll = try ChildProcess(CLIFixture.tickerctl, ["--bus", fixture.address, "timeline", "--after", digest])
        #expect(!poll.waitForOutput(timeout: .milliseconds(300)) { !$0.isEmpty })
        try fixture.daemon.stop()
        #expect(try poll.wait(timeout: .seconds(20)) == 0)
        #expect(try object(poll.standardOutput)["state"] as? String == "offline")
        // Offline to online is a change too: a poll from "offline" returns when the daemon is back.
        let offline = try #require(try object(poll.standardOutput)["digest"] as? String)
        let back = try ChildProcess(CLIFixture.tickerctl, ["--bus", fixture.address, "timeline", "--after", offline])
        try fixture.daemon.start()
        #expect(try back.wait(timeout: .seconds(20)) == 0)
        #expect(try object(back.standardOutput)["state"] as? String == "online")
    }

    @Test func anUnreachableBusExits69AndAMissingDaemonIsOffline() throws {
        let scratch = try TemporaryDirectory(prefix: "timeline")
        let nowhere = try ChildProcess.run(CLIFixture.tickerctl, ["--bus", "unix:path=\(scratch.file("no-bus"))", "timeline"])
        #expect(nowhere.status == 69, "\(nowhere.stderr)")
        #expect(nowhere.stdout.isEmpty && nowhere.stderr.hasPrefix("tickerctl: cannot connect to the bus at "), "\(nowhere.stderr)")
        let bus = try PrivateBus()
        let alone = try ChildProcess.run(CLIFixture.tickerctl, ["--bus", bus.address, "timeline"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(try object(alone.stdout)["state"] as? String == "offline")
    }

    /// When the bus itself went away during the wait, the command printed the state it had read
    /// before (still "online", the digest the caller holds) instead of "offline".
    @Test func theBusGoingAwayEndsTheWaitWithOffline() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "one"])
        let digest = try #require(try object(try fixture.ok(["timeline"]))["digest"] as? String)
        let poll = try ChildProcess(CLIFixture.tickerctl, ["--bus", fixture.address, "timeline", "--after", digest])
        #expect(!poll.waitForOutput(timeout: .milliseconds(300)) { !$0.isEmpty })
        fixture.daemon.bus.stop()
        #expect(try poll.wait(timeout: .seconds(20)) == 0)
        let state = try object(poll.standardOutput)
        #expect(state["state"] as? String == "offline" && state["digest"] as? String != digest, "\(state)")
    }
}
