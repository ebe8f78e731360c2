import Foundation
import Testing
import TestSupport

/// docs/dbus-api.md promises "every member below is shown with a `busctl` call that works against a
/// running daemon": every `busctl` command of its shell blocks is run, in order, against the real
/// daemon on a private bus (`--user` pointed at it), and every member of the interface XML must
/// appear in one of them.
@Suite(.serialized) struct APIDocExamplesTests {
    /// The `busctl` commands of the document's ```sh blocks, continuation lines joined.
    static func busctlCommands() throws -> [String] {
        try MarkdownShellLines.commands(in: Repository.read("docs/dbus-api.md")).filter { $0.hasPrefix("busctl ") }
    }

    /// Whether `command` names `member` as a word of its own or in a match rule (`member='X'`).
    static func mentions(_ command: String, _ member: String) -> Bool {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\"" })
        return words.contains { $0 == member || $0 == "member='\(member)'" }
    }

    @Test func everyMemberOfEveryInterfaceHasABusctlExample() throws {
        let commands = try Self.busctlCommands()
        let contract = try InterfaceXML.contract()
        #expect(contract.count == 3)
        for (name, interface) in contract {
            let members = Array(interface.methods.keys) + Array(interface.signals.keys) + Array(interface.properties.keys)
            for member in members {
                #expect(
                    commands.contains { $0.contains(name) && Self.mentions($0, member) },
                    "docs/dbus-api.md has no busctl example for \(name).\(member)")
            }
        }
    }

    @Test func everyBusctlExampleWorksAgainstTheDaemon() throws {
        let fixture = try DaemonFixture()
        let commands = try Self.busctlCommands()
        #expect(commands.count >= 20)
        var ran = 0
        for command in commands {
            #expect(command.hasPrefix("busctl --user "), "examples use --user: \(command)")
            // `monitor` runs until interrupted; it is covered by the member check above.
            if command.contains(" monitor ") { continue }
            let pointed = "busctl --address=\"$0\" " + command.dropFirst("busctl --user ".count)
            let output = try ChildProcess.run("bash", ["-c", pointed, fixture.address])
            #expect(output.status == 0, "\(command)\n\(output.stderr)")
            ran += 1
        }
        #expect(ran >= 15)
        // The examples did what they say: the post with id bedtime was updated and then removed;
        // the one with a link (id notes) stays.
        #expect(Set(try fixture.property("main", "Messages").value as? [String] ?? []) == ["m1", "notes"])
        #expect(try fixture.property("main", "Paused").value as? Bool == false)
    }
}
