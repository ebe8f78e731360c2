import DBus
import Foundation
import Testing
import TestSupport

/// org.freedesktop.DBus.Properties as independent peers see it.
@Suite struct PropertiesTests {
    @Test func getAndSetThroughBusctl() throws {
        let fixture = try BusFixture()
        #expect(try fixture.busctl(["get-property", TestService.busName, TestService.pathText, TestService.interfaceName, "Name"]).stdout
                == "s \"test service\"\n")
        let set = try fixture.busctl(["set-property", TestService.busName, TestService.pathText, TestService.interfaceName, "Counter", "i", "-41"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try fixture.read { $0.counter } == -41)
        #expect(try fixture.busctl(["get-property", TestService.busName, TestService.pathText, TestService.interfaceName, "Counter"]).stdout
                == "i -41\n")
    }

    @Test func getAllThroughGdbus() throws {
        let fixture = try BusFixture()
        let output = try fixture.gdbusCall("GetAll", ["\(TestService.interfaceName)"], interface: "org.freedesktop.DBus.Properties")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("'Name': <'test service'>"))
        #expect(output.stdout.contains("'Counter': <0>"))
        #expect(output.stdout.contains("'Label': <'hello'>"))
        #expect(output.stdout.contains("'Frame': <('abc', 0.5, {'reveal': <1.0>})>"))
    }

    @Test(arguments: [
        (["string:io.github.tickerd.Test1", "string:Name", "variant:string:x"], "org.freedesktop.DBus.Error.PropertyReadOnly"),
        (["string:io.github.tickerd.Test1", "string:Nope", "variant:string:x"], "org.freedesktop.DBus.Error.UnknownProperty"),
        (["string:io.github.tickerd.Nope", "string:Name", "variant:string:x"], "org.freedesktop.DBus.Error.UnknownInterface"),
        (["string:io.github.tickerd.Test1", "string:Counter", "variant:string:x"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["string:io.github.tickerd.Test1", "string:Label", "variant:string:"], "org.freedesktop.DBus.Error.InvalidArgs"),
        (["string:io.github.tickerd.Test1", "string:Counter"], "org.freedesktop.DBus.Error.InvalidArgs"),
    ])
    func setErrorsCarryTheirStandardNames(arguments: [String], errorName: String) throws {
        let fixture = try BusFixture()
        let output = try fixture.dbusSend("Set", arguments, interface: "org.freedesktop.DBus.Properties")
        #expect(output.status != 0)
        #expect(output.stderr.hasPrefix("Error \(errorName):"), "\(output.stderr)")
        #expect(try fixture.read { ($0.counter, $0.label) } == (0, "hello"))
    }

    @Test func getErrors() throws {
        let fixture = try BusFixture()
        let unknownProperty = try fixture.dbusSend("Get", ["string:io.github.tickerd.Test1", "string:Nope"], interface: "org.freedesktop.DBus.Properties")
        #expect(unknownProperty.stderr.hasPrefix("Error org.freedesktop.DBus.Error.UnknownProperty:"))
        let unknownInterface = try fixture.dbusSend("GetAll", ["string:org.example.Nope"], interface: "org.freedesktop.DBus.Properties")
        #expect(unknownInterface.stderr.hasPrefix("Error org.freedesktop.DBus.Error.UnknownInterface:"))
    }
}
