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

    /// The D-Bus specification lets a caller leave the interface name empty: Get and Set then
    /// find the property on any of the object's interfaces, and GetAll lists them all. It was
    /// `UnknownInterface` "does not implement " (an empty name in the message).
    @Test func anEmptyInterfaceNameFindsThePropertyOnAnyInterface() throws {
        let fixture = try BusFixture()
        let properties = "org.freedesktop.DBus.Properties"
        let get = try fixture.dbusSend("Get", ["string:", "string:Name"], interface: properties)
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout.contains("string \"test service\""))
        let set = try fixture.dbusSend("Set", ["string:", "string:Counter", "variant:int32:7"], interface: properties)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try fixture.read { $0.counter } == 7)
        let all = try fixture.gdbusCall("GetAll", [""], interface: properties)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("'Name': <'test service'>") && all.stdout.contains("'Counter': <7>"))
        let missing = try fixture.dbusSend("Get", ["string:", "string:Nope"], interface: properties)
        #expect(missing.stderr.hasPrefix("Error org.freedesktop.DBus.Error.UnknownProperty:"), "\(missing.stderr)")
    }
}
