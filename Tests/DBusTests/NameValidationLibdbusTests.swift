import CDBus
@testable import DBus
import TestSupport
import Testing

/// The name and path checks give libdbus's own verdicts (`dbus_validate_*`), which are what
/// dbus-daemon and every libdbus peer apply, on random names around every rule and the length
/// limit.
@Suite struct NameValidationLibdbusTests {
    /// Pieces the random names are made of: each rule's allowed and refused characters.
    private static let pieces = ["a", "Z", "q", "9", "0", "_", "-", ".", ".", "/", "/", ":", "é", " ", "ab", "x1"]

    /// A random name: a few pieces, or (one time in six) a long run near the 255-byte limit.
    private func randomName(_ rng: inout SeededRandom) -> String {
        if Int.random(in: 0..<6, using: &rng) == 0 {
            let element = ["a", "ab", "a1", "a-"].randomElement(using: &rng) ?? "a"
            let separator = [".", "/"].randomElement(using: &rng) ?? "."
            var name = [":", "/", ""].randomElement(using: &rng) ?? ""
            while name.utf8.count < 250 { name += element + separator }
            name += String(repeating: "b", count: Int.random(in: 0...8, using: &rng))
            return name
        }
        return (0..<Int.random(in: 0...7, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng) ?? "a" }.joined()
    }

    /// The specification's verdict on bus name `name`, given libdbus's: libdbus also accepts a
    /// unique name (`:…`) of one element or with an empty first one (`:`, `:1`, `:.1`), which the
    /// specification refuses ("at least one '.'", elements not empty); tickerd follows the
    /// specification, refusing what libdbus would refuse and those.
    private func busNameVerdict(_ name: String, libdbus: Bool) -> Bool {
        guard libdbus, name.hasPrefix(":") else { return libdbus }
        let elements = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return elements.count >= 2 && elements.allSatisfy { !$0.isEmpty }
    }

    @Test func verdictsAreLibdbusVerdicts() {
        var rng = SeededRandom(seed: 0x4E4D45)
        var accepted = (interface: 0, member: 0, bus: 0, path: 0)
        for _ in 0..<20_000 {
            let name = randomName(&rng)
            let libdbus = (
                interface: dbus_validate_interface(name, nil) != 0,
                member: dbus_validate_member(name, nil) != 0,
                bus: dbus_validate_bus_name(name, nil) != 0,
                error: dbus_validate_error_name(name, nil) != 0,
                path: dbus_validate_path(name, nil) != 0)
            #expect(NameValidation.isValidInterfaceName(name) == libdbus.interface, "interface \(name)")
            #expect(NameValidation.isValidMemberName(name) == libdbus.member, "member \(name)")
            #expect(NameValidation.isValidBusName(name) == busNameVerdict(name, libdbus: libdbus.bus), "bus name \(name)")
            #expect(NameValidation.isValidErrorName(name) == libdbus.error, "error name \(name)")
            #expect(ObjectPath.isValid(name) == libdbus.path, "path \(name)")
            if libdbus.interface { accepted.interface += 1 }
            if libdbus.member { accepted.member += 1 }
            if libdbus.bus { accepted.bus += 1 }
            if libdbus.path { accepted.path += 1 }
        }
        // The random names reach both verdicts of every check, not only refusals.
        #expect(accepted.interface > 200 && accepted.member > 200 && accepted.bus > 200 && accepted.path > 200,
                "accepted: \(accepted)")
    }
}
