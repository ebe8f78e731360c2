import Foundation
import Testing
import TestSupport

/// `dbus-policy/io.github.tickerd.Ticker1.conf` on a system-like private bus (default deny, like
/// Debian's system bus): only user tickerd owns the name; anyone reads, renders and introspects;
/// only group tickerd and root call Control; nobody calls Properties.Set.
///
/// The owner is the real tickerd (``TickerdUnderTest``) running as user tickerd; only the
/// broadcast-signal test uses the stand-in, which reports the signals it receives.
@Suite struct BusPolicyTests {
    typealias Peers = BusPeers

    /// Every Control method, with arguments the daemon accepts (`id` is a posted message's id).
    static func controlCalls(id: String) -> [(method: String, arguments: [String])] {
        [
            ("Post", ["main", "'hello from the policy test'", "{}"]),
            ("Update", ["'\(id)'", "{}"]),
            ("List", ["''"]),
            ("SetValue", ["main", "count", "1.0", "{}"]),
            ("Configure", ["main", "{}"]),
            ("Pause", ["main"]),
            ("Resume", ["main"]),
            ("Reload", []),
            ("Remove", ["'\(id)'"]),
        ]
    }

    @Test func nobodyButUserTickerdMayOwnTheName() throws {
        try TestAccounts.ensure()
        let bus = try SystemLikeBus()
        for caller in [Caller.root, .nobody, .poster] {
            let request = try caller.run(Peers.driver(bus.address, "RequestName", ["string:\(Peers.name)", "uint32:4"]))
            #expect(CallOutcome(request) == .denied, "\(caller) could ask for the name: \(request.stdout)")
            #expect(request.stderr.contains("is not allowed to own the service"), "\(request.stderr)")
        }

        // The daemon started as root is refused the name and says so by exiting non-zero.
        let files = try OwnedBus.daemonFiles()
        let asRoot = try Caller.root.start([TickerdUnderTest.executable]
            + TickerdUnderTest.arguments(bus: bus.address, directory: files.path))
        #expect(try asRoot.wait(timeout: .seconds(30)) != 0)
        #expect(try Peers.ownerUID(bus.address) == nil)

        let owned = try OwnedBus()
        #expect(try Peers.ownerUID(owned.address) == TestAccounts.uid(of: TestAccounts.daemonUser))
    }

    @Test func anyoneMayReadEveryProperty() throws {
        let owned = try OwnedBus()
        let interfaces = try InterfaceXML.contract()
        for (path, interface) in [(Peers.managerPath, "Manager"), (Peers.mainChannelPath, "Channel")] {
            let description = try #require(interfaces["\(Peers.name).\(interface)"])
            #expect(!description.properties.isEmpty)
            for property in description.properties.keys.sorted() {
                let read = try Caller.nobody.run(Peers.busctl(owned.address, [
                    "get-property", Peers.name, path, description.name, property,
                ]))
                #expect(read.status == 0, "nobody cannot read \(interface).\(property): \(read.stderr)")
                #expect(read.stdout.hasPrefix(description.properties[property]?.type ?? "?"))
            }
            let all = try Caller.nobody.run(Peers.call(owned.address, path, "org.freedesktop.DBus.Properties.GetAll",
                                                       [description.name]))
            #expect(CallOutcome(all) != .denied)
            #expect(all.status == 0, "GetAll: \(all.stderr)")
        }
    }

    @Test func anyoneMayIntrospectPingRenderAndSubscribe() throws {
        let owned = try OwnedBus()
        for path in [Peers.managerPath, Peers.mainChannelPath] {
            let introspected = try Caller.nobody.run(Peers.busctl(owned.address, ["introspect", Peers.name, path]))
            #expect(introspected.status == 0, "introspect \(path): \(introspected.stderr)")
            let ping = try Caller.nobody.run(Peers.busctl(owned.address, [
                "call", Peers.name, path, "org.freedesktop.DBus.Peer", "Ping",
            ]))
            #expect(ping.status == 0, "Ping \(path): \(ping.stderr)")
        }
        let channel = "\(Peers.name).Channel"
        for (method, arguments) in [
            ("Render", ["80", "0"]),
            ("Subscribe", ["{'columns': <uint32 40>, 'fps': <10.0>}"]),
            ("Unsubscribe", []),
        ] {
            let outcome = CallOutcome(try Caller.nobody.run(
                Peers.call(owned.address, Peers.mainChannelPath, "\(channel).\(method)", arguments)))
            if case .replied = outcome {} else { Issue.record("nobody: Channel.\(method): \(outcome)") }
        }
        // ObjectManager is open to everyone too, and lists the channels.
        let managed = CallOutcome(try Caller.nobody.run(
            Peers.call(owned.address, Peers.managerPath, "org.freedesktop.DBus.ObjectManager.GetManagedObjects")))
        guard case let .replied(objects) = managed else {
            Issue.record("nobody: GetManagedObjects: \(managed)")
            return
        }
        #expect(objects.contains(Peers.mainChannelPath))
    }

    @Test func onlyGroupTickerdAndRootMayCallControl() throws {
        let owned = try OwnedBus()
        let control = "\(Peers.name).Control"
        for (method, arguments) in Self.controlCalls(id: "policy-test") {
            let outcome = CallOutcome(try Caller.nobody.run(
                Peers.call(owned.address, Peers.managerPath, "\(control).\(method)", arguments)))
            #expect(outcome == .denied, "nobody: Control.\(method): \(outcome)")
        }

        // The group member posts, and every other method takes the id it got back.
        let posted = CallOutcome(try Caller.poster.run(
            Peers.call(owned.address, Peers.managerPath, "\(control).Post", Self.controlCalls(id: "")[0].arguments)))
        guard case let .replied(reply) = posted else {
            Issue.record("group member: Control.Post: \(posted)")
            return
        }
        let id = Self.postedID(reply)
        for (method, arguments) in Self.controlCalls(id: id).dropFirst() {
            let outcome = CallOutcome(try Caller.poster.run(
                Peers.call(owned.address, Peers.managerPath, "\(control).\(method)", arguments)))
            if case .replied = outcome {} else { Issue.record("group member: Control.\(method): \(outcome)") }
        }

        let byRoot = CallOutcome(try Caller.root.run(
            Peers.call(owned.address, Peers.managerPath, "\(control).Post", Self.controlCalls(id: "")[0].arguments)))
        if case .replied = byRoot {} else { Issue.record("root: Control.Post: \(byRoot)") }
    }

    @Test func nobodyMaySetAProperty() throws {
        let owned = try OwnedBus()
        for caller in [Caller.nobody, .poster, .root] {
            let outcome = CallOutcome(try caller.run(Peers.call(
                owned.address, Peers.mainChannelPath, "org.freedesktop.DBus.Properties.Set",
                ["\(Peers.name).Channel", "Paused", "<true>"])))
            #expect(outcome == .denied, "\(caller): Properties.Set: \(outcome)")
        }
    }

    /// Broadcast signals from other peers (logind's PrepareForSleep, sent by root) reach the owner.
    /// Always the stand-in: it reports the signals it receives.
    @Test func broadcastSignalsReachTheOwner() throws {
        let owned = try OwnedBus(program: .standIn)
        for (caller, asleep) in [(Caller.root, "true"), (.nobody, "false")] {
            let sent = try caller.run(Peers.busctl(owned.address, [
                "emit", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", asleep,
            ]))
            #expect(sent.status == 0, "\(caller) could not emit: \(sent.stderr)")
        }
        let both = owned.owner.waitForOutput(timeout: .seconds(20)) { output in
            output.components(separatedBy: "signal org.freedesktop.login1.Manager.PrepareForSleep").count == 3
        }
        #expect(both, "the owner got: \(owned.owner.standardOutput)")
    }

    /// The id in gdbus's reply text `('ID',)`.
    static func postedID(_ reply: String) -> String {
        let parts = reply.split(separator: "'", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : ""
    }
}
