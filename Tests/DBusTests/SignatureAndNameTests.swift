import DBus
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
