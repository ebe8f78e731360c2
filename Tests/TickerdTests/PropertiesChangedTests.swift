import DBus
import Foundation
import Testing
import TestSupport

/// PropertiesChanged for every property that says it emits it (DESIGN §3), with the new values
/// (`Messages` by name only); never for `Frame` (computed on read) or the constants;
/// ObjectManager announces new channels.
@Suite(.serialized) struct PropertiesChangedTests {
    static let properties = "org.freedesktop.DBus.Properties"

    /// The names a PropertiesChanged signal reports (changed with values, or invalidated).
    static func names(_ signal: BusClient.Received) -> Set<String> {
        let changed = signal.arguments.dropFirst().first?.vardictValue?.keys.map { $0 } ?? []
        let invalidated = signal.arguments.dropFirst(2).first?.stringArrayValue ?? []
        return Set(changed + invalidated)
    }

    /// The names a PropertiesChanged of `interface` reports without their values.
    static func invalidated(_ signal: BusClient.Received, interface: String) -> [String] {
        guard signal.member == "PropertiesChanged", signal.arguments.first?.stringValue == interface else { return [] }
        return signal.arguments.dropFirst(2).first?.stringArrayValue ?? []
    }

    /// The new value of `name` in a PropertiesChanged of `interface`, if it carries one.
    static func value(_ signal: BusClient.Received, interface: String, _ name: String) -> DBusValue? {
        guard signal.member == "PropertiesChanged", signal.arguments.first?.stringValue == interface else { return nil }
        return signal.arguments.dropFirst().first?.vardictValue?[name]?.unwrappingVariant
    }

    @Test func everyEmittingPropertyIsAnnouncedWithItsNewValue() throws {
        let fixture = try DaemonFixture()
        let channel = DaemonFixture.channelInterface
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.properties, member: "PropertiesChanged")
        try watcher.record(interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded")
        func seen(_ interface: String, _ name: String, _ value: DBusValue) -> Bool {
            watcher.waitFor { $0.contains { Self.value($0, interface: interface, name) == value } }
        }

        let id = try fixture.post("hello there")
        #expect(seen(channel, "Text", .string("hello there")))
        // Messages is named without its value (a channel's ids are many); a read gives the list.
        #expect(watcher.waitFor { $0.contains { Self.invalidated($0, interface: channel).contains("Messages") } })
        #expect(try fixture.property("main", "Messages").value as? [String] == [id])
        #expect(watcher.signals.contains { Self.value($0, interface: channel, "Timeline")?.vardictValue?["tape"]
            == .string("hello there  •  ") })

        _ = try fixture.call("Pause", "s", ["main"])
        #expect(seen(channel, "Paused", .bool(true)))
        _ = try fixture.call("Resume", "s", ["main"])
        #expect(seen(channel, "Paused", .bool(false)))

        _ = try fixture.call("Configure", "sa{sv}", ["main", "2", "columns", "u", "33", "frame-rate", "d", "2"])
        #expect(seen(channel, "Columns", .uint32(33)))
        #expect(seen(channel, "FrameRate", .double(2)))
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "frame-rate", "d", "0"])
        #expect(seen(channel, "FrameRate", .double(0)))

        let subscriber = try BusClient(address: fixture.address)
        try subscriber.call(path: DaemonFixture.channelPath("main"), interface: channel, member: "Subscribe", [.vardict([:])])
        #expect(seen(channel, "Subscribers", .uint32(1)))
        subscriber.close()
        #expect(seen(channel, "Subscribers", .uint32(0)))

        // A new channel: the manager's Channels, and InterfacesAdded with the channel's properties.
        _ = try fixture.post("in the lobby", channel: "lobby")
        let lobby = DaemonFixture.channelPath("lobby")
        #expect(watcher.waitFor { signals in
            signals.contains { signal in
                let paths = Self.value(signal, interface: DaemonFixture.managerInterface, "Channels")?.arrayValue
                return paths?.contains { $0.objectPathValue?.description == lobby } == true
            }
        })
        #expect(watcher.waitFor { $0.contains { $0.member == "InterfacesAdded" && $0.arguments.first?.objectPathValue?.description == lobby } })
        let managed = try fixture.busctl([
            "call", DaemonFixture.service, DaemonFixture.managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
        ])
        #expect(managed.stdout.contains(lobby) && managed.stdout.contains("in the lobby"))

        // Frame is computed on read and the constants never change: none is ever announced. Nor
        // is the Messages list ever sent with a signal.
        let announced = watcher.signals.filter { $0.member == "PropertiesChanged" }.map(Self.names)
        #expect(!announced.isEmpty)
        for names in announced {
            #expect(names.isDisjoint(with: ["Frame", "Name", "Version"]), "\(names)")
        }
        #expect(!watcher.signals.contains { Self.value($0, interface: channel, "Messages") != nil })
    }

    /// A channel created by `Configure` or `SetValue` is announced by InterfacesAdded and then one
    /// PropertiesChanged for the change: the same Text and Timeline were sent twice (the new
    /// channel's first evaluation announced its empty tape again).
    @Test(arguments: [
        ["Configure", "sa{sv}", "fresh", "1", "mode", "s", "static"],
        ["SetValue", "ssda{sv}", "fresh", "count", "7", "0"],
    ])
    func aChannelCreatedByAChangeIsAnnouncedOnce(_ call: [String]) throws {
        let fixture = try DaemonFixture()
        let channel = DaemonFixture.channelInterface
        let path = DaemonFixture.channelPath("fresh")
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.properties, member: "PropertiesChanged")
        _ = try fixture.call(call[0], call[1], Array(call.dropFirst(2)))
        // A later Post to the channel fences what the call announced (signals come in order).
        _ = try fixture.post("fence", channel: "fresh")
        func isFence(_ signal: BusClient.Received) -> Bool {
            signal.path == path && Self.value(signal, interface: channel, "Text")?.stringValue == "fence"
        }
        #expect(watcher.waitFor { $0.contains(where: isFence) })
        let signals = watcher.signals
        let fence = try #require(signals.firstIndex(where: isFence))
        let announced = signals[..<fence].filter { $0.path == path }
        #expect(announced.count == 1, "\(call[0]) of a new channel: \(announced.map(Self.names))")
        #expect(announced.first.map(Self.names)?.isSuperset(of: ["Text", "Timeline"]) == true)
    }

    /// One change announces each channel's properties once, however many parts of it touched the
    /// channel: an Update of a shown message's effect and text, and a reload that brings a new
    /// channel section with a message for it, each sent two PropertiesChanged with the same values.
    @Test func oneChangeAnnouncesAChannelOnce() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: Self.properties, member: "PropertiesChanged")
        /// The PropertiesChanged of `channel` that `change` caused, fenced by a later Post there.
        func announced(_ channel: String, by change: () throws -> Void) throws -> [Set<String>] {
            let path = DaemonFixture.channelPath(channel)
            let before = watcher.signals.count
            try change()
            let fence = "fence \(before)"
            _ = try fixture.post(fence, channel: channel, options: ["id", "s", "fence\(before)"])
            func isFence(_ signal: BusClient.Received) -> Bool {
                signal.path == path
                    && Self.value(signal, interface: DaemonFixture.channelInterface, "Text")?.stringValue?.contains(fence) == true
            }
            #expect(watcher.waitFor { $0.dropFirst(before).contains(where: isFence) })
            let signals = Array(watcher.signals.dropFirst(before))
            let end = try #require(signals.firstIndex(where: isFence))
            return signals[..<end].filter { $0.path == path }.map(Self.names)
        }

        _ = try fixture.post("one moment", channel: "main", options: ["id", "s", "wait"])
        // The post's own announcement reaches the watcher on its own connection, maybe after the
        // answer: wait for it, so the window below holds the Update's announcements alone.
        #expect(watcher.waitFor { signals in
            signals.contains { $0.path == DaemonFixture.channelPath("main")
                && Self.value($0, interface: DaemonFixture.channelInterface, "Text")?.stringValue == "one moment" }
        })
        let update = try announced("main") {
            _ = try fixture.call("Update", "sa{sv}", ["wait", "2", "text", "s", "one moment...", "effect", "s", "dots"])
        }
        #expect(update.count == 1, "\(update)")
        #expect(update.first?.isSuperset(of: ["Text", "Timeline"]) == true)

        let reload = try announced("lobby") {
            try fixture.daemon.writeConfig("""
                [channel.lobby]
                mode = "static"

                [[message]]
                channel = "lobby"
                text = "welcome"
                id = "hello"

                """)
            _ = try fixture.call("Reload")
        }
        #expect(reload.count == 1, "\(reload)")
        #expect(reload.first?.isSuperset(of: ["Text", "Timeline", "Messages"]) == true)
    }
}
