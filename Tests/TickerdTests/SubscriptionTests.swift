import DBus
import Foundation
import Testing
import TestSupport

/// Subscriptions: unicast frames at the subscriber's width and pace, only when they change, and
/// forgotten when the subscriber leaves the bus.
@Suite(.serialized) struct SubscriptionTests {
    static let channelPath = DaemonFixture.channelPath("main")
    static let channelInterface = DaemonFixture.channelInterface

    @Test func framesReachOnlyTheSubscriberAtItsWidth() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Frames for one subscriber only, at its own width and pace")
        let subscriber = try BusClient(address: fixture.address)
        let bystander = try BusClient(address: fixture.address)
        try subscriber.record(interface: Self.channelInterface, member: "Frame")
        try bystander.record(interface: Self.channelInterface, member: "Frame")
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(14), "fps": .double(20)])
        ])
        #expect(subscriber.waitFor { $0.count >= 5 })
        for frame in subscriber.signals {
            let text = try #require(frame.arguments.first?.stringValue)
            #expect(text.count == 14)
            let offset = try #require(frame.arguments.dropFirst().first?.doubleValue)
            #expect(offset >= 0 && offset < 1)
        }
        // Consecutive frames differ (identical frames are not sent again).
        let texts = subscriber.signals.map { "\($0.arguments.first?.stringValue ?? "")|\($0.arguments.dropFirst().first?.doubleValue ?? -1)" }
        #expect(zip(texts, texts.dropFirst()).allSatisfy { $0 != $1 })
        // Every frame is a window of the stream at that width: 14 cells of the tape, wrapping round.
        let tape = "Frames for one subscriber only, at its own width and pace  •  "
        for frame in subscriber.signals {
            let text = frame.arguments.first?.stringValue ?? ""
            #expect((tape + tape).contains(text), "\(text.debugDescription) is no window of the tape")
        }
        #expect(try fixture.property("main", "Subscribers").value as? Int == 1)
        // Unicast: the bystander, matching the same signal, got none of them.
        #expect(bystander.signals.isEmpty)
    }

    @Test func aStaticTextIsSentOnceAndNotAgain() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("short")
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.record(interface: Self.channelInterface, member: "Frame")
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(20), "fps": .double(30)])
        ])
        #expect(subscriber.waitFor { $0.count >= 1 })
        #expect(subscriber.signals.first?.arguments.first?.stringValue == "short               ")
        // A text that fits does not move, so no further frame comes until something changes.
        #expect(!subscriber.waitFor(timeout: .seconds(1)) { $0.count >= 2 })
        _ = try fixture.post("other")
        #expect(subscriber.waitFor { $0.count >= 2 })
        #expect(subscriber.signals.last?.arguments.first?.stringValue == "short  •  other     ")
    }

    @Test func eachSubscriberGetsItsOwnColumnsAndPace() throws {
        let fixture = try DaemonFixture()
        let text = "Two subscribers on one channel, each at its own width and at its own frame rate"
        _ = try fixture.post(text)
        let fast = try BusClient(address: fixture.address)
        let slow = try BusClient(address: fixture.address)
        try fast.record(interface: Self.channelInterface, member: "Frame")
        try slow.record(interface: Self.channelInterface, member: "Frame")
        try fast.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(10), "fps": .double(20)])
        ])
        try slow.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(30), "fps": .double(4)])
        ])
        #expect(try fixture.property("main", "Subscribers").value as? Int == 2)
        #expect(slow.waitFor(timeout: .seconds(10)) { $0.count >= 6 })
        let slowFrames = slow.signals
        let fastFrames = fast.signals
        #expect(fastFrames.allSatisfy { $0.arguments.first?.stringValue?.count == 10 })
        #expect(slowFrames.allSatisfy { $0.arguments.first?.stringValue?.count == 30 })
        // 4 fps: frames come no closer than the 250 ms interval (less generous delivery jitter:
        // 20 fps would be 50 ms apart), and the 20 fps subscriber got several frames for each of
        // the slow one's.
        let gaps = zip(slowFrames.dropFirst(), slowFrames).map { $0.arrivedAt - $1.arrivedAt }
        #expect(gaps.allSatisfy { $0 >= 125_000 }, "gaps at 4 fps: \(gaps)")
        #expect(fastFrames.count >= 2 * slowFrames.count, "\(fastFrames.count) fast, \(slowFrames.count) slow")
        // Leaving is per connection: the fast one goes, the slow one keeps its frames.
        fast.close()
        #expect(try fixture.waitForProperty("main", "Subscribers") { $0.value as? Int == 1 })
        let before = slow.signals.count
        #expect(slow.waitFor(timeout: .seconds(5)) { $0.count >= before + 2 })
    }

    /// A subscriber that gave no `columns` follows the channel's `Columns`, also when `Configure`
    /// changes them (it kept the width of its `Subscribe`); one that gave `columns` keeps them.
    @Test func aSubscriberWithoutColumnsFollowsConfigureColumns() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("A message long enough to scroll at every width the two subscribers see, "
            + "from the default eighty columns down to twenty-four")
        let following = try BusClient(address: fixture.address)
        let fixed = try BusClient(address: fixture.address)
        try following.record(interface: Self.channelInterface, member: "Frame")
        try fixed.record(interface: Self.channelInterface, member: "Frame")
        try following.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["fps": .double(20)])
        ])
        try fixed.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(14), "fps": .double(20)])
        ])
        #expect(following.waitFor { $0.count >= 2 })
        #expect(following.signals.allSatisfy { $0.arguments.first?.stringValue?.count == 80 })

        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "columns", "u", "24"])
        #expect(try fixture.property("main", "Columns").value as? Int == 24)
        #expect(following.waitFor { $0.last?.arguments.first?.stringValue?.count == 24 })
        // From then on every frame is 24 wide: no frame at the old width comes after one at the new.
        let switched = following.signals.count
        #expect(following.waitFor { $0.count >= switched + 3 })
        let widths = following.signals.compactMap { $0.arguments.first?.stringValue?.count }
        let firstNew = try #require(widths.firstIndex(of: 24))
        #expect(widths[..<firstNew].allSatisfy { $0 == 80 } && widths[firstNew...].allSatisfy { $0 == 24 }, "\(widths)")
        // The subscriber that asked for 14 columns still gets 14.
        let seen = fixed.signals.count
        #expect(fixed.waitFor { $0.count >= seen + 3 })
        #expect(fixed.signals.allSatisfy { $0.arguments.first?.stringValue?.count == 14 })
    }

    @Test func aSubscriberProcessThatExitsIsForgotten() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Scrolling for a subscriber in another process, until it is killed")
        // An independent peer (Debian's python3 + Gio; a pyenv python has no gi) that subscribes and
        // then waits for ever.
        let script = """
            import sys
            from gi.repository import Gio, GLib
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            bus = Gio.DBusConnection.new_for_address_sync(sys.argv[1], flags, None, None)
            bus.call_sync('io.github.tickerd.Ticker1', '/io/github/tickerd/Ticker1/channel/main',
                          'io.github.tickerd.Ticker1.Channel', 'Subscribe',
                          GLib.Variant('(a{sv})', ({'fps': GLib.Variant('d', 10.0)},)), None, 0, -1, None)
            print('subscribed', flush=True)
            GLib.MainLoop().run()
            """
        let peer = try ChildProcess("/usr/bin/python3", ["-c", script, fixture.address])
        defer { peer.kill(SIGKILL) }
        #expect(peer.waitForOutput(timeout: .seconds(20)) { $0.contains("subscribed") }, "\(peer.standardError)")
        #expect(try fixture.property("main", "Subscribers").value as? Int == 1)
        peer.kill(SIGKILL)
        _ = try peer.wait(timeout: .seconds(10))
        #expect(try fixture.waitForProperty("main", "Subscribers") { $0.value as? Int == 0 })
    }

    @Test func aCountingValueInStillTextReachesTheSubscriber() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "builds", "1000", "1", "grouping", "b", "true"])
        _ = try fixture.post("Builds: {builds}")
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.record(interface: Self.channelInterface, member: "Frame")
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(20), "fps": .double(30)])
        ])
        #expect(subscriber.waitFor { $0.first?.arguments.first?.stringValue == "Builds: 1,000       " })
        // The text fits and stands still; only the number moves, and every step of it is sent.
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "builds", "1500", "1", "duration", "x", "1000000"])
        #expect(subscriber.waitFor { $0.last?.arguments.first?.stringValue == "Builds: 1,500       " })
        let texts = subscriber.signals.compactMap { $0.arguments.first?.stringValue }
        #expect(texts.count >= 5, "\(texts)")
        #expect(texts.allSatisfy { $0.hasPrefix("Builds: 1,") && $0.count == 20 }, "\(texts)")
    }

    @Test func aSubscriberThatLeavesIsForgotten() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Watch me scroll until my subscriber goes away")
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["fps": .double(10)])
        ])
        #expect(try fixture.property("main", "Subscribers").value as? Int == 1)
        subscriber.close()
        #expect(try fixture.waitForProperty("main", "Subscribers") { $0.value as? Int == 0 })
    }

    @Test func unsubscribeEndsFramesAndBadOptionsAreRefused() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("A scrolling message for unsubscribing")
        let subscriber = try BusClient(address: fixture.address)
        #expect(throws: DBusError.self) {
            try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
                .vardict(["fps": .double(600)])
            ])
        }
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [.vardict([:])])
        #expect(try fixture.property("main", "Subscribers").value as? Int == 1)
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Unsubscribe", [])
        #expect(try fixture.property("main", "Subscribers").value as? Int == 0)
    }

    @Test func aSubscriberMakesTheDaemonWakeAtItsPace() throws {
        // The counter-check of the idle test: the same measurement sees the wake-ups a subscriber causes.
        let fixture = try DaemonFixture()
        _ = try fixture.post("Moving text with a subscriber watching at ten frames a second")
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.record(interface: Self.channelInterface, member: "Frame")
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["fps": .double(10), "columns": .uint32(20)])
        ])
        #expect(subscriber.waitFor { !$0.isEmpty })
        let before = try DaemonFixture.contextSwitches(pid: fixture.daemon.process.pid)
        let start = subscriber.signals.count
        #expect(subscriber.waitFor(timeout: .seconds(5)) { $0.count >= start + 10 })
        let after = try DaemonFixture.contextSwitches(pid: fixture.daemon.process.pid)
        #expect(after - before >= 10, "ten frames need at least ten wake-ups, counted \(after - before)")
    }

    @Test func aFrameRateBroadcastsFramesToEveryoneAtColumns() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Broadcast frames for every listener on the bus, at the channel's width")
        let listener = try BusClient(address: fixture.address)
        try listener.record(interface: Self.channelInterface, member: "Frame")
        _ = try fixture.call("Configure", "sa{sv}", ["main", "2", "frame-rate", "d", "10", "columns", "u", "16"])
        #expect(try fixture.property("main", "FrameRate").value as? Double == 10)
        #expect(listener.waitFor { $0.count >= 5 })
        #expect(listener.signals.allSatisfy { $0.arguments.first?.stringValue?.count == 16 })
        // Nobody subscribed: these are broadcasts, and stopping them stops the frames.
        #expect(try fixture.property("main", "Subscribers").value as? Int == 0)
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "frame-rate", "d", "0"])
        let after = listener.signals.count
        #expect(!listener.waitFor(timeout: .seconds(1)) { $0.count > after + 1 })
    }
}
