import DBus
import TestSupport
import Testing

/// Messages built and read in-process: values survive the trip through libdbus's marshaller,
/// libdbus agrees with our signatures, and bad input is an error, never a crash.
@Suite struct MessageValueTests {
    private func call() throws -> Message {
        try Message.methodCall(destination: "org.example.Dest", path: path("/o"), interface: "org.example.I", member: "M")
    }

    @Test func randomValuesRoundTripThroughMessages() throws {
        var rng = SeededRandom(seed: 0x7157)
        for _ in 0..<500 {
            let count = Int.random(in: 1...4, using: &rng)
            let values = (0..<count).map { _ in RandomValues.value(of: RandomValues.type(&rng, depth: 0), &rng) }
            let message = try call()
            try message.append(values)
            // libdbus computed the signature from what was written; ours comes from the values.
            #expect(message.signature.rawValue == values.map(\.type.signature).joined())
            #expect(try message.arguments() == values)
            #expect(try message.arguments(expecting: message.signature) == values)
        }
    }

    @Test func commonShapesRoundTrip() throws {
        let shapes: [DBusValue] = [
            .vardict(["columns": .uint32(80), "fps": .double(30), "name": .string("main")]),
            .array(.structure([.string, .vardict]), [.structure([.string("id1"), .vardict(["urgent": .bool(true)])])]),
            .structure([.string("frame"), .double(0.25), .vardict(["dots": .array(.double, [.double(0), .double(0.5)])])]),
            .stringArray([]),
            .objectPathArray([path("/io/github/tickerd/Ticker1/channel/main")]),
        ]
        let message = try call()
        try message.append(shapes)
        #expect(message.signature.rawValue == "a{sv}a(sa{sv})(sda{sv})asao")
        let read = try message.arguments()
        #expect(read == shapes)
        #expect(read[0].vardictValue?["columns"] == .uint32(80))
        #expect(read[3].stringArrayValue == [])
        #expect(read[4].objectPathArrayValue == [path("/io/github/tickerd/Ticker1/channel/main")])
    }

    @Test func signatureMismatchIsAnInvalidArgsError() throws {
        let message = try call()
        try message.append(.string("x"))
        let error = #expect(throws: DBusError.self) { try message.arguments(expecting: signature("sa{sv}")) }
        #expect(error?.name == DBusError.Names.invalidArgs)
        #expect(error?.message.contains("sa{sv}") == true)
    }

    @Test func illFormedValuesAreRefusedBeforeLibdbusSeesThem() throws {
        let bad: [DBusValue] = [
            .string("nul\u{0}inside"),
            .array(.int32, [.string("not an int")]),
            .dictionary(key: .string, value: .variant, [DBusDictEntry(key: .int32(1), value: .variant(.int32(1)))]),
            .dictionary(key: .variant, value: .int32, []),
            .structure([]),
            .unixFD(-1),
        ]
        for value in bad {
            let message = try call()
            let error = #expect(throws: DBusError.self) { try message.append([.int32(1), value]) }
            #expect(error?.name == DBusError.Names.invalidArgs)
            // Nothing was appended: the message holds no half-written arguments.
            #expect(message.signature == .empty)
        }
    }

    @Test func invalidNamesAreErrorsNotAborts() {
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: "no dots", path: .root, interface: nil, member: "M")
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: .root, interface: "org..x", member: "M")
        }
        #expect(throws: DBusError.self) { try Message.signal(path: .root, interface: "org.x.Y", member: "1bad") }
        #expect(throws: DBusError.self) { try Message.signal(path: .root, interface: "org.x.Y", member: "") }
    }

    @Test func replyingToAnUnsentCallIsAnError() throws {
        #expect(throws: DBusError.self) { try call().makeError(DBusError.failed("boom")) }
        #expect(throws: DBusError.self) { try call().makeReturn() }
    }
}
