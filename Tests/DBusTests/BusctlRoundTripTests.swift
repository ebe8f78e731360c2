import DBus
import Testing
import Foundation
import TestSupport

/// Every type round-trips through `busctl call`, which has its own marshaller: what busctl prints
/// for the reply is what it was given, and what the service received is the value meant.
@Suite struct BusctlRoundTripTests {
    /// (method, the value sent and expected back)
    static let cases: [(String, DBusValue)] = [
        ("EchoByte", .byte(7)),
        ("EchoBool", .bool(true)),
        ("EchoInt16", .int16(-12)),
        ("EchoUInt16", .uint16(65535)),
        ("EchoInt32", .int32(Int32.min)),
        ("EchoUInt32", .uint32(UInt32.max)),
        ("EchoInt64", .int64(Int64.min)),
        ("EchoUInt64", .uint64(UInt64.max)),
        ("EchoDouble", .double(-1.25)),
        ("EchoString", .string("hello world")),
        ("EchoPath", .objectPath(path("/a/b_c"))),
        ("EchoSignature", .signature(signature("a{sv}"))),
        ("EchoStrings", .stringArray(["a", "b", "c"])),
        ("EchoStrings", .stringArray([])),
        ("EchoPaths", .objectPathArray([path("/x"), path("/y")])),
        ("EchoBytes", .array(.byte, [.byte(1), .byte(2), .byte(255)])),
        ("EchoVardict", .vardict(["a": .int32(1), "b": .string("x"), "c": .stringArray(["z"])])),
        ("EchoList", .array(.structure([.string, .vardict]), [
            .structure([.string("m1"), .vardict(["priority": .int32(5), "urgent": .bool(true)])]),
            .structure([.string("m2"), .vardict([:])]),
        ])),
        ("EchoList", .array(.structure([.string, .vardict]), [])),
        ("EchoFrame", .structure([.string("text"), .double(0.5), .vardict(["reveal": .double(0.25)])])),
        ("EchoVariant", .variant(.stringArray(["p", "q"]))),
        ("EchoVariant", .variant(.variant(.int64(-3)))),
        ("EchoIntDict", .dictionary(key: .int32, value: .string, [
            DBusDictEntry(key: .int32(1), value: .string("one")),
            DBusDictEntry(key: .int32(2), value: .string("two")),
        ])),
        ("EchoNested", .array(.array(.int32), [.array(.int32, [.int32(1), .int32(2)]), .array(.int32, [])])),
        ("EchoStruct", .structure([.byte(1), .bool(false), .int16(-2), .uint16(3), .int32(-4), .uint32(5),
                                   .int64(-6), .uint64(7), .double(8.5), .string("s"), .objectPath(path("/p")),
                                   .signature(signature("ai"))])),
    ]

    @Test func everyTypeRoundTripsThroughBusctl() throws {
        let fixture = try BusFixture()
        for (method, expected) in Self.cases {
            let output = try fixture.busctlCall(method, BusctlFormat.arguments(expected))
            #expect(output.status == 0, "\(method): \(output.stderr)")
            let received = try fixture.read { $0.lastEcho }
            #expect(received == expected, "\(method) received \(String(describing: received))")
            #expect(output.stdout.trimmingCharacters(in: .newlines) == BusctlFormat.printed(expected),
                    "\(method) printed \(output.stdout)")
        }
    }
}
