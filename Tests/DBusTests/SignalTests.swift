import DBus
import Foundation
import Testing
import TestSupport

/// Signals: broadcast ones seen by dbus-monitor, unicast ones only by their destination,
/// PropertiesChanged per annotation, ObjectManager's InterfacesAdded/Removed.
@Suite struct SignalTests {
    /// A client on the test's own thread, recording the signals matching `rule`.
    final class Recorder {
        let loop: EventLoop
        let connection: Connection
        var messages: [Message] = []
        var subscription: SignalSubscription?

        init(address: String, loop: EventLoop, rule: MatchRule) throws {
            self.loop = loop
            connection = try Connection(bus: .address(address), loop: loop)
            subscription = try connection.addMatchConfirmed(rule) { [unowned self] message in
                self.messages.append(message)
            }
        }

        var firstStrings: [String] { messages.compactMap { try? $0.arguments().first?.stringValue } }
    }

    static let tickRule = MatchRule(interface: TestService.interfaceName, member: "Tick")

    @Test func broadcastSignalsReachDbusMonitor() throws {
        let fixture = try BusFixture()
        let monitor = try ChildProcess("dbus-monitor", ["--address", fixture.bus.address, "type='signal',interface='\(TestService.interfaceName)'"])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(20)) { $0.contains("member=NameLost") })
        #expect(try fixture.busctlCall("Emit", ["s", "hello monitor"]).status == 0)
        #expect(monitor.waitForOutput(timeout: .seconds(20)) { $0.contains("string \"hello monitor\"") })
        let line = monitor.standardOutput.split(separator: "\n").first { $0.contains("member=Tick") } ?? ""
        #expect(line.contains("destination=(null destination)"))
        #expect(line.contains("path=\(TestService.pathText); interface=\(TestService.interfaceName); member=Tick"))
    }

    @Test func unicastSignalsReachOnlyTheirDestination() throws {
        let fixture = try BusFixture()
        let loop = try EventLoop()
        let first = try Recorder(address: fixture.bus.address, loop: loop, rule: Self.tickRule)
        let second = try Recorder(address: fixture.bus.address, loop: loop, rule: Self.tickRule)
        _ = try first.connection.callBlocking(
            destination: TestService.busName, path: TestService.path, interface: TestService.interfaceName,
            member: "EmitTo", arguments: [.string(first.connection.uniqueName), .string("private")])
        _ = try first.connection.callBlocking(
            destination: TestService.busName, path: TestService.path, interface: TestService.interfaceName,
            member: "Emit", arguments: [.string("public")])
        // Signals from one sender arrive in order: once both saw "public", the second client
        // would have seen "private" before it, had it been delivered.
        #expect(loop.run(timeout: .seconds(20)) { first.firstStrings.count == 2 && second.firstStrings.count == 1 })
        #expect(first.firstStrings == ["private", "public"])
        #expect(second.firstStrings == ["public"])
        #expect(first.messages.first?.destination == first.connection.uniqueName)
    }

    @Test func propertiesChangedFollowsEachPropertysAnnotation() throws {
        let fixture = try BusFixture()
        let loop = try EventLoop()
        let recorder = try Recorder(address: fixture.bus.address, loop: loop, rule: MatchRule(
            interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: TestService.path))
        for (name, value) in [("Counter", ["i", "5"]), ("Label", ["s", "new label"])] {
            let output = try fixture.busctl(["set-property", TestService.busName, TestService.pathText, TestService.interfaceName, name] + value)
            #expect(output.status == 0, "\(output.stderr)")
        }
        #expect(loop.run(timeout: .seconds(20)) { recorder.messages.count == 2 })
        let arguments = try recorder.messages.map { try $0.arguments() }
        #expect(arguments.first == [.string(TestService.interfaceName), .vardict(["Counter": .int32(5)]), .stringArray([])])
        #expect(arguments.last == [.string(TestService.interfaceName), .vardict([:]), .stringArray(["Label"])])
    }

    @Test func objectManagerListsAndAnnouncesObjects() throws {
        let fixture = try BusFixture()
        let managed = try ChildProcess.run("gdbus", [
            "call", "--address", fixture.bus.address, "--dest", TestService.busName,
            "--object-path", TestService.managerPathText, "--method", "org.freedesktop.DBus.ObjectManager.GetManagedObjects",
        ])
        #expect(managed.stdout.hasPrefix("({objectpath '\(TestService.pathText)': {'\(TestService.interfaceName)': {"), "\(managed.stdout) \(managed.stderr)")
        #expect(managed.stdout.contains("'Counter': <0>"))

        let loop = try EventLoop()
        let recorder = try Recorder(address: fixture.bus.address, loop: loop, rule: MatchRule(
            interface: "org.freedesktop.DBus.ObjectManager", path: TestService.managerPath))
        let child = path(TestService.managerPathText + "/child")
        try fixture.read { service in
            try service.connection.export([Interface("org.example.Child", properties: [
                Property("Size", type: .uint32, get: { .uint32(3) }),
            ])], at: child)
            service.connection.unexport(child)
        }
        #expect(loop.run(timeout: .seconds(20)) { recorder.messages.count == 2 })
        #expect(recorder.messages.map { $0.member ?? "" } == ["InterfacesAdded", "InterfacesRemoved"])
        #expect(try recorder.messages[0].arguments() == [
            .objectPath(child),
            .dictionary(key: .string, value: .vardict, [DBusDictEntry(key: .string("org.example.Child"), value: .vardict(["Size": .uint32(3)]))]),
        ])
        #expect(try recorder.messages[1].arguments() == [.objectPath(child), .stringArray(["org.example.Child"])])
    }

    @Test func emittingASignalWithUndeclaredArgumentsIsAnError() throws {
        let fixture = try BusFixture()
        let error = try fixture.read { service -> DBusError? in
            do {
                try service.connection.emitSignal(path: TestService.path, interface: TestService.interfaceName,
                                                  member: "Tick", arguments: [.int32(1)])
                return nil
            } catch let error as DBusError {
                return error
            }
        }
        #expect(error?.name == DBusError.Names.invalidArgs)
    }
}
