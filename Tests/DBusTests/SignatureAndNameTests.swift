@testable import DBus
import TestSupport
import Testing

/// Signature parsing and name validation follow the specification's grammar and limits.
@Suite struct SignatureAndNameTests {
    @Test(arguments: ["", "s", "a{sv}", "a(sa{sv})", "(sda{sv})", "aai", "a{oa{sa{sv}}}", "ybnqiuxtdsogh", "vav"])
    func validSignaturesParseAndPrintBack(_ text: String) throws {
        let parsed = try Signature(text)
        #expect(parsed.rawValue == text)
        #expect(parsed.types.map(\.signature).joined() == text)
    }

    @Test(arguments: ["(", ")", "()", "a", "{sv}", "a{vs}", "a{s}", "a{svs}", "z", "a{sv", "(s", "aa"])
    func invalidSignaturesAreErrors(_ text: String) {
        #expect(throws: DBusError.self) { try Signature(text) }
    }

    @Test func nestingAndLengthLimitsAreEnforced() throws {
        _ = try Signature(String(repeating: "a", count: 32) + "i")
        #expect(throws: DBusError.self) { try Signature(String(repeating: "a", count: 33) + "i") }
        _ = try Signature(String(repeating: "(", count: 32) + "i" + String(repeating: ")", count: 32))
        #expect(throws: DBusError.self) {
            try Signature(String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33))
        }
        #expect(throws: DBusError.self) { try Signature(String(repeating: "i", count: 256)) }
    }

    /// Types near and past the limits: arrays, dictionaries and structures wrapped up to 40 deep,
    /// structures of up to 140 fields, empty structures and container keys now and then.
    private func limitType(_ rng: inout SeededRandom) -> DBusType {
        var type = RandomValues.type(&rng, depth: 2)
        // Mostly one kind of wrapping, so that either kind reaches its limit of 32.
        let kinds = [[0, 1, 2, 3], [4, 5, 6], Array(0..<10)].randomElement(using: &rng) ?? []
        for _ in 0..<Int.random(in: 0...40, using: &rng) {
            switch kinds.randomElement(using: &rng) ?? 0 {
            case 0...3: type = .array(type)
            case 4...6: type = .structure([type])
            case 7: type = .dictionary(key: Bool.random(using: &rng) ? .string : .variant, value: type)
            case 8: type = .structure(Array(repeating: type, count: Int.random(in: 0...3, using: &rng)))
            default: type = .structure((0..<Int.random(in: 60...140, using: &rng)).map { _ in .int32 } + [type])
            }
        }
        return type
    }

    @Test func limitsCheckedWithoutTextMatchTheParser() {
        var rng = SeededRandom(seed: 0x11A17)
        var accepted = 0
        for _ in 0..<4000 {
            let type = limitType(&rng)
            let parsed = (try? Signature(type.signature)) != nil
            let checked = (try? type.checkSignatureLimits()) != nil
            #expect(parsed == checked, "\(type.signature)")
            if checked { accepted += 1 }
        }
        // Both outcomes are exercised.
        #expect(accepted > 400 && accepted < 3600, "\(accepted) of 4000 accepted")
    }

    @Test func randomTypesRoundTripThroughTheirSignature() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<1000 {
            let type = RandomValues.type(&rng, depth: 0)
            #expect(try DBusType(parsing: type.signature) == type)
        }
    }

    @Test func objectPaths() {
        for valid in ["/", "/a", "/a/b_c/D9"] { #expect(ObjectPath.isValid(valid), "\(valid)") }
        for invalid in ["", "a", "//", "/a/", "/a//b", "/a-b", "/é"] { #expect(!ObjectPath.isValid(invalid), "\(invalid)") }
    }

    @Test func busInterfaceAndMemberNames() {
        #expect(NameValidation.isValidBusName("io.github.tickerd.Ticker1"))
        #expect(NameValidation.isValidBusName(":1.42"))
        #expect(NameValidation.isValidBusName("org.example.with-hyphen"))
        #expect(!NameValidation.isValidBusName("single"))
        #expect(!NameValidation.isValidBusName("org.1digit"))
        #expect(!NameValidation.isValidBusName(String(repeating: "a.", count: 128) + "b"))
        #expect(NameValidation.isValidInterfaceName("io.github.tickerd.Ticker1.Control"))
        #expect(!NameValidation.isValidInterfaceName("io.github.tickerd-x.I"))
        #expect(NameValidation.isValidMemberName("Post"))
        #expect(!NameValidation.isValidMemberName("Post.It"))
        #expect(!NameValidation.isValidMemberName("9Post"))
    }
}
