import DBus
import Foundation
import Testing
import TestSupport

/// The generated Introspect XML is read correctly by busctl and gdbus, and `busctl tree` walks
/// the object tree through the child nodes.
@Suite struct IntrospectionTests {
    @Test func busctlIntrospectListsMembersSignaturesAndPropertyValues() throws {
        let fixture = try BusFixture()
        let output = try fixture.busctl(["introspect", TestService.busName, TestService.pathText])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        func row(_ name: String) -> [String]? { lines.first { $0.first == name } }
        #expect(row(TestService.interfaceName)?.dropFirst().first == "interface")
        for standard in ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties"] {
            #expect(row(standard)?.dropFirst().first == "interface", "\(standard)")
        }
        #expect(row(".EchoList") == [".EchoList", "method", "a(sa{sv})", "a(sa{sv})", "-"])
        #expect(row(".Fail") == [".Fail", "method", "ss", "-", "-"])
        #expect(row(".Tick") == [".Tick", "signal", "s", "-", "-"])
        // busctl reads every property through GetAll and prints its value and flags.
        #expect(row(".Counter") == [".Counter", "property", "i", "0", "emits-change", "writable"])
        #expect(row(".Name") == [".Name", "property", "s", "\"test", "service\"", "const"])
        #expect(row(".Label") == [".Label", "property", "s", "\"hello\"", "emits-invalidation", "writable"])
        #expect(row(".Frame")?.prefix(3) == [".Frame", "property", "(sda{sv})"])
    }

    @Test func gdbusIntrospectParsesTheSameDescription() throws {
        let fixture = try BusFixture()
        let output = try ChildProcess.run("gdbus", [
            "introspect", "--address", fixture.bus.address, "--dest", TestService.busName,
            "--object-path", TestService.pathText,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let text = output.stdout
        #expect(text.contains("interface \(TestService.interfaceName) {"))
        #expect(text.contains("EchoFrame(in  (sda{sv}) value,"))
        #expect(text.contains("out (sda{sv}) value);"))
        #expect(text.contains("Fail(in  s name,"))
        #expect(text.contains("Tick(s text);"))
        #expect(text.contains("readwrite i Counter = 0;"))
        #expect(text.contains("readonly s Name = 'test service';"))
        #expect(text.contains("@org.freedesktop.DBus.Property.EmitsChangedSignal(\"invalidates\")"))
    }

    @Test func busctlTreeWalksFromTheRootThroughChildNodes() throws {
        let fixture = try BusFixture()
        let output = try fixture.busctl(["tree", TestService.busName], options: ["--list"])
        #expect(output.status == 0, "\(output.stderr)")
        let paths = Set(output.stdout.split(separator: "\n").map(String.init))
        #expect(paths == ["/", "/io", "/io/github", "/io/github/tickerd", "/io/github/tickerd/Test1", TestService.pathText])
    }

    @Test func introspectingANodeThatDoesNotExistIsUnknownObject() throws {
        let fixture = try BusFixture()
        let output = try fixture.dbusSend("Introspect", interface: "org.freedesktop.DBus.Introspectable", path: "/nowhere")
        #expect(output.status != 0)
        #expect(output.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"))
    }
}
