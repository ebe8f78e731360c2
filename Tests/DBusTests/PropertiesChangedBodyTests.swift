@testable import DBus
import TestSupport
import Testing

/// `PropertiesChanged` written straight into wire bytes carries exactly what the signal built
/// from ``DBusValue``s carries, and an `a{sv}` property written entry by entry reads back (`Get`)
/// as the same dictionary.
@Suite struct PropertiesChangedBodyTests {
    /// A random property: a plain one of a random type, or (one in two) an `a{sv}` one written
    /// entry by entry; with the value a `Get` must return.
    private func randomProperty(named name: String, _ rng: inout SeededRandom) -> (Property, DBusValue) {
        if Bool.random(using: &rng) {
            let type = RandomValues.type(&rng, depth: 0)
            let value = RandomValues.value(of: type, &rng)
            return (Property(name, type: type, get: { value }), value)
        }
        var fields: [String: DBusValue] = [:]
        for _ in 0..<Int.random(in: 0...24, using: &rng) {
            fields[RandomValues.word(&rng)] = RandomValues.value(of: RandomValues.type(&rng, depth: 1), &rng, depth: 1)
        }
        let sorted = fields.sorted { $0.key < $1.key }
        let property = Property(name, vardict: { writer in
            for (key, value) in sorted { try writer.add(key, value) }
        })
        return (property, .vardict(fields))
    }

    @Test func bodyIsTheBodyOfTheValues() throws {
        var rng = SeededRandom(seed: 0x5052_4F50)
        for round in 0..<600 {
            var changed: [Property] = []
            var values: [String: DBusValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &rng) {
                let (property, value) = randomProperty(named: "P\(index)" + RandomValues.word(&rng), &rng)
                changed.append(property)
                values[property.name] = value
            }
            changed.sort { $0.name < $1.name }
            let invalidated = (0..<Int.random(in: 0...2, using: &rng)).map { _ in "I" + RandomValues.word(&rng) }
            let interface = "org.example.I" + RandomValues.word(&rng)

            let direct = try Connection.propertiesChangedBody(interface: interface, changed: changed, invalidated: invalidated)
            let reference = try WireBody([.string(interface), .vardict(values), .stringArray(invalidated)])
            #expect(direct.signature == reference.signature, "round \(round)")
            #expect(direct.bytes == reference.bytes, "round \(round): \(values)")
            for property in changed {
                #expect(try property.value() == values[property.name], "round \(round): Get \(property.name)")
            }
        }
    }

    @Test func badEntryIsRefusedAsTheValueIs() throws {
        let bad: DBusValue = .string("a\u{0}b")
        let property = Property("Fields", vardict: { writer in
            try writer.add("fine", .uint32(1))
            try writer.add("bad", bad)
        })
        #expect(throws: DBusError.self) { try WireBody([.vardict(["bad": bad])]) }
        #expect(throws: DBusError.self) {
            try Connection.propertiesChangedBody(interface: "org.example.I", changed: [property], invalidated: [])
        }
        // Get builds the entries without wire checks; the value it returns still fails to encode.
        #expect(throws: DBusError.self) { try WireBody([try property.value()]) }
    }
}
