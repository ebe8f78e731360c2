import DBus
import Foundation
import Testing
import TestSupport

/// Method calls from independent peers: replies, error names, and the standard Peer interface.
@Suite struct MethodCallTests {
    @Test func gdbusCallsWithItsOwnMarshaller() throws {
        let fixture = try BusFixture()
        let vardict = try fixture.gdbusCall("EchoVardict", ["{'columns': <uint32 80>, 'name': <'main'>}"])
        #expect(vardict.stdout == "({'columns': <uint32 80>, 'name': <'main'>},)\n", "\(vardict.stderr)")
        #expect(try fixture.read { $0.lastEcho } == .vardict(["columns": .uint32(80), "name": .string("main")]))
        let frame = try fixture.gdbusCall("EchoFrame", ["('text', 0.5, {'reveal': <0.25>})"])
        #expect(frame.stdout == "(('text', 0.5, {'reveal': <0.25>}),)\n", "\(frame.stderr)")
    }

    @Test(arguments: [
        ("NoSuchMethod", [String](), "org.freedesktop.DBus.Error.UnknownMethod"),
        ("EchoInt32", ["string:not an int"], "org.freedesktop.DBus.Error.InvalidArgs"),
        ("EchoInt32", ["int32:1", "int32:2"], "org.freedesktop.DBus.Error.InvalidArgs"),
        ("Fail", ["string:io.github.tickerd.Ticker1.Error.InvalidText", "string:bad character at 3"],
         "io.github.tickerd.Ticker1.Error.InvalidText"),
        ("Fail", ["string:not a valid name", "string:x"], "org.freedesktop.DBus.Error.Failed"),
        ("WrongReturn", [String](), "org.freedesktop.DBus.Error.Failed"),
    ])
    func errorRepliesCarryTheRightName(member: String, arguments: [String], errorName: String) throws {
        let fixture = try BusFixture()
        let output = try fixture.dbusSend(member, arguments)
        #expect(output.status != 0)
        #expect(output.stderr.hasPrefix("Error \(errorName):"), "\(output.stderr)")
    }

    @Test func aHandlerErrorKeepsItsMessage() throws {
        let fixture = try BusFixture()
        let output = try fixture.dbusSend("Fail", ["string:io.github.tickerd.Ticker1.Error.InvalidText", "string:bad character at 3"])
        #expect(output.stderr == "Error io.github.tickerd.Ticker1.Error.InvalidText: bad character at 3\n")
    }

    @Test func unknownInterfaceAndUnknownObject() throws {
        let fixture = try BusFixture()
        let interface = try fixture.dbusSend("EchoInt32", ["int32:1"], interface: "org.example.Nope")
        #expect(interface.stderr.hasPrefix("Error org.freedesktop.DBus.Error.UnknownInterface:"))
        let object = try fixture.dbusSend("EchoInt32", ["int32:1"], path: "/io/github/tickerd/Test1/none")
        #expect(object.stderr.hasPrefix("Error org.freedesktop.DBus.Error.UnknownObject:"))
    }

    @Test func callsWithoutAnInterfaceFindTheMethod() throws {
        let fixture = try BusFixture()
        // busctl, gdbus and dbus-send all insist on an interface, so this client is the library's.
        let loop = try EventLoop()
        let client = try Connection(bus: .address(fixture.bus.address), loop: loop)
        let message = try Message.methodCall(destination: TestService.busName, path: TestService.path, interface: nil, member: "EchoString")
        try message.append(.string("plain"))
        #expect(try client.callBlocking(message).arguments() == [.string("plain")])
    }

    @Test func peerPingAndMachineId() throws {
        let fixture = try BusFixture()
        let ping = try fixture.busctlCall("Ping", [])
        // Ping belongs to org.freedesktop.DBus.Peer, not to the test interface.
        #expect(ping.stderr.contains("Unknown method") || ping.status != 0)
        let realPing = try fixture.busctl(["call", TestService.busName, TestService.pathText, "org.freedesktop.DBus.Peer", "Ping"])
        #expect(realPing.status == 0, "\(realPing.stderr)")
        let machine = try fixture.busctl(["call", TestService.busName, TestService.pathText, "org.freedesktop.DBus.Peer", "GetMachineId"])
        let expected = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(machine.stdout == "s \"\(expected)\"\n", "\(machine.stderr)")
    }

    @Test func deferredRepliesArriveLater() throws {
        let fixture = try BusFixture()
        let output = try fixture.busctlCall("Later", ["u", "50"])
        #expect(output.stdout == "s \"done after 50 ms\"\n", "\(output.stderr)")
    }

    @Test func aCallThatExpectsNoReplyStillRuns() throws {
        let fixture = try BusFixture()
        let before = try fixture.read { $0.callCount }
        // Without --print-reply, dbus-send sets NO_REPLY_EXPECTED; the call still runs.
        let output = try ChildProcess.run("dbus-send", [
            "--bus=\(fixture.bus.address)", "--type=method_call", "--dest=\(TestService.busName)",
            TestService.pathText, "\(TestService.interfaceName).EchoInt32", "int32:5",
        ])
        #expect(output.status == 0)
        #expect(try fixture.waitFor { $0.callCount == before + 1 })
    }
}
