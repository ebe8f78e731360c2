import CDBus
@testable import DBus
import TestSupport
import Testing

/// Messages built without libdbus (``WireMessage``) are the very bytes libdbus writes for the same
/// message, libdbus reads back what went in, and bad input is an error.
@Suite struct WireMessageTests {
    /// libdbus's marshalling of `message` numbered `serial`.
    private func libdbusBytes(_ message: Message, serial: UInt32) -> [UInt8] {
        dbus_message_set_serial(message.raw, serial)
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else { return [] }
        defer { dbus_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }

    /// Where `ours` first differs from `reference` (nil when equal), short enough to read.
    private func firstDifference(_ ours: [UInt8], _ reference: [UInt8]) -> String? {
        guard ours != reference else { return nil }
        let index = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, reference.count)
        let ourByte = index < ours.count ? "\(ours[index])" : "end"
        let theirByte = index < reference.count ? "\(reference[index])" : "end"
        return "byte \(index) of \(ours.count)/\(reference.count): ours \(ourByte), libdbus \(theirByte)"
    }

    private func randomValues(_ rng: inout SeededRandom) -> [DBusValue] {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in RandomValues.value(of: RandomValues.type(&rng, depth: 0), &rng) }
    }

    @Test func signalsAreLibdbusBytes() throws {
        var rng = SeededRandom(seed: 0x3172E)
        for round in 0..<1500 {
            let values = randomValues(&rng)
            let objectPath = path("/" + (0..<Int.random(in: 1...3, using: &rng)).map { _ in RandomValues.word(&rng) }.joined(separator: "/"))
            let interface = "org.example." + RandomValues.word(&rng).filter { !$0.isNumber }.padding(toLength: 3, withPad: "x", startingAt: 0)
            let member = "M" + RandomValues.word(&rng)
            let destination = Bool.random(using: &rng) ? ":1.\(Int.random(in: 0...9999, using: &rng))" : nil
            let serial = UInt32.random(in: 1...UInt32.max, using: &rng)

            let reference = try Message.signal(path: objectPath, interface: interface, member: member)
            try reference.setDestination(destination)
            try reference.append(values)
            let wire = try WireMessage.signal(
                path: objectPath, interface: interface, member: member, destination: destination, body: WireBody(values))
            let ours = wire.withSerial(serial).bytes
            let difference = firstDifference(ours, libdbusBytes(reference, serial: serial))
            #expect(difference == nil, "round \(round): \(values)")
            // libdbus validates the bytes and reads the same arguments back.
            let parsed = try wire.libdbusMessage(serial: serial)
            #expect(try parsed.arguments() == values)
            #expect(parsed.path == objectPath && parsed.interface == interface && parsed.member == member)
            #expect(parsed.destination == destination && parsed.kind == .signal && parsed.serial == serial)
        }
    }

    @Test func methodReturnsAreLibdbusBytes() throws {
        var rng = SeededRandom(seed: 0x2E7)
        for round in 0..<800 {
            let values = randomValues(&rng)
            let callSerial = UInt32.random(in: 1...UInt32.max, using: &rng)
            let caller = ":1.\(Int.random(in: 0...99999, using: &rng))"
            let call = try Message.methodCall(destination: "org.example.Service", path: path("/o"), interface: "org.example.I", member: "M")
            dbus_message_set_serial(call.raw, callSerial)
            #expect(dbus_message_set_sender(call.raw, caller) != 0)
            let reference = try call.makeReturn()
            try reference.append(values)
            let wire = try WireMessage.methodReturn(replySerial: callSerial, destination: caller, body: WireBody(values))
            let difference = firstDifference(wire.withSerial(7).bytes, libdbusBytes(reference, serial: 7))
            #expect(difference == nil, "round \(round): \(values)")
            let parsed = try wire.libdbusMessage(serial: 7)
            #expect(parsed.kind == .methodReturn && parsed.replySerial == callSerial && parsed.destination == caller)
            #expect(try parsed.arguments() == values)
        }
    }

    @Test func theShapesTickerdSendsAreLibdbusBytes() throws {
        // PropertiesChanged with a timeline, a frame with dots, a list entry: long strings, empty
        // containers, variants of containers, doubles after odd offsets.
        let timeline: DBusValue = .vardict([
            "tape": .string(String(repeating: "It's Johnny's birthday! 🎂 ", count: 40)), "speed": .double(8.5),
            "start": .int64(1_790_000_000_000_000), "columns": .uint32(80), "layout": .string(""),
        ])
        let shapes: [[DBusValue]] = [
            [.string("io.github.tickerd.Channel1"), timeline, .stringArray(["Messages", "Text"])],
            [.string("…"), .double(-0.25), .vardict(["cycle": .double(3), "dots": .array(.double, [])])],
            [.array(.structure([.string, .vardict]), [.structure([.string("id-1"), .vardict(["urgent": .bool(true)])])])],
            [.byte(7), .variant(.structure([.byte(1), .double(2)])), .uint16(3), .variant(.array(.int64, [.int64(-1)]))],
            [],
        ]
        for values in shapes {
            let reference = try Message.signal(path: path("/io/github/tickerd/Ticker1/channel/main"), interface: "org.example.I", member: "S")
            try reference.append(values)
            let wire = try WireMessage.signal(
                path: path("/io/github/tickerd/Ticker1/channel/main"), interface: "org.example.I", member: "S", body: WireBody(values))
            let difference = firstDifference(wire.withSerial(99).bytes, libdbusBytes(reference, serial: 99))
            #expect(difference == nil, "\(values)")
        }
    }

    /// `value` with one fault put somewhere inside (maybe): a NUL in a string, an array item or
    /// dictionary entry of another type, an empty structure, a container key, deep variants.
    private func corrupt(_ value: DBusValue, _ rng: inout SeededRandom) -> DBusValue {
        switch value {
        case .string where Bool.random(using: &rng): return .string("bad\0string")
        case .array(let element, var items) where !items.isEmpty:
            let index = Int.random(in: 0..<items.count, using: &rng)
            items[index] = Bool.random(using: &rng) ? .variant(.int32(1)) : corrupt(items[index], &rng)
            return .array(element, items)
        case .dictionary(let key, let valueType, var entries) where !entries.isEmpty:
            let index = Int.random(in: 0..<entries.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .dictionary(key: .variant, value: valueType, entries)
            case 1: entries[index].value = corrupt(entries[index].value, &rng)
            case 2: entries[index].value = valueType == .variant ? .int32(1) : .variant(.int32(1))
            default: entries[index].key = .bool(true)
            }
            return .dictionary(key: key, value: valueType, entries)
        case .structure(var fields):
            if Int.random(in: 0..<4, using: &rng) == 0 { return .structure([]) }
            let index = Int.random(in: 0..<fields.count, using: &rng)
            fields[index] = corrupt(fields[index], &rng)
            return .structure(fields)
        case .variant(let inner):
            if Int.random(in: 0..<4, using: &rng) == 0 {
                return (0..<Int.random(in: 60...70, using: &rng)).reduce(inner) { wrapped, _ in .variant(wrapped) }
            }
            return .variant(corrupt(inner, &rng))
        default:
            return value
        }
    }

    @Test func refusesExactlyWhatValidateRefuses() throws {
        var rng = SeededRandom(seed: 0xBAD)
        var refused = 0
        for round in 0..<3000 {
            let values = randomValues(&rng).map { corrupt($0, &rng) }
            let valid = values.allSatisfy { (try? $0.validate()) != nil }
            var encodedOK = true
            do {
                _ = try WireBody(values)
            } catch let error as DBus.DBusError {
                encodedOK = false
                #expect(error.name == DBus.DBusError.Names.invalidArgs)
            }
            #expect(encodedOK == valid, "round \(round): \(values)")
            if !valid { refused += 1 }
        }
        // Both outcomes are exercised.
        #expect(refused > 300 && refused < 2700, "\(refused) of 3000 refused")
    }

    @Test func badInputIsAnErrorAndNothingIsBuilt() throws {
        func isInvalidArgs(_ body: () throws -> Void) -> Bool {
            do { try body() } catch let error as DBus.DBusError { return error.name == DBus.DBusError.Names.invalidArgs } catch { return false }
            return false
        }
        #expect(isInvalidArgs { _ = try WireBody([.string("nul \0 inside")]) })
        #expect(isInvalidArgs { _ = try WireBody([.array(.int32, [.string("not an int")])]) })
        #expect(isInvalidArgs { _ = try WireBody([.unixFD(0)]) })
        #expect(try WireBody.forEncoding([.string("a"), .variant(.unixFD(1))]) == nil)
        // A body past the encoding limit is left to libdbus's iterators; a smaller one is not.
        #expect(try WireBody.forEncoding([.string(String(repeating: "x", count: WireBody.encodedLimit))]) == nil)
        #expect(try WireBody.forEncoding([.string(String(repeating: "x", count: 1000))]) != nil)
        // 128 arguments of `as` make a 256-byte signature, one past the limit.
        #expect(isInvalidArgs { _ = try WireBody(Array(repeating: .stringArray([]), count: 128)) })
        let body = try WireBody([.string("ok")])
        #expect(isInvalidArgs { _ = try WireMessage.signal(path: .root, interface: "no dots", member: "M", body: body) })
        #expect(isInvalidArgs { _ = try WireMessage.signal(path: .root, interface: "a.b", member: "bad-member", body: body) })
        #expect(isInvalidArgs { _ = try WireMessage.signal(path: .root, interface: "a.b", member: "M", destination: "::", body: body) })
        #expect(isInvalidArgs { _ = try WireMessage.methodReturn(replySerial: 0, destination: nil, body: body) })
    }
}
