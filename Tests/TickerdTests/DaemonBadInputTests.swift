import DBus
import Foundation
import Testing
import TestSupport

/// Bad input over the bus and in the file, as a client or an administrator meets it: the real
/// daemon on a private bus, checked with busctl and gdbus (and the tests' own client where a
/// message is too big for a command line).
@Suite struct DaemonBadInputTests {
    static let error = "io.github.tickerd.Ticker1.Error."

    /// A letter with eight million combining marks is one character of 16 MB: it blocked the
    /// daemon for 12 s. It is refused for its bytes before any of it is walked, and the daemon
    /// answers everyone else at once.
    @Test func aHugeTextOfOneCharacterIsRefusedAtOnce() throws {
        let fixture = try DaemonFixture()
        let client = try BusClient(address: fixture.address)
        defer { client.close() }
        let hostile = "q" + String(repeating: "\u{301}", count: 8_000_000)
        // The daemon's own work, in CPU time: moving 16 MB through the bus takes what it takes on
        // a loaded machine, but the daemon must not spend seconds on the text.
        let before = try #require(ProcessSample.of(fixture.daemon.process.pid)).cpuSeconds
        let refusal = #expect(throws: DBusError.self) {
            try client.call(path: DaemonFixture.managerPath, interface: DaemonFixture.control, member: "Post",
                            [.string("main"), .string(hostile), .dictionary(key: .string, value: .variant, [])])
        }
        let spent = try #require(ProcessSample.of(fixture.daemon.process.pid)).cpuSeconds - before
        #expect(refusal?.name == Self.error + "LimitExceeded")
        #expect(refusal?.message == "text is 16000001 bytes long (UTF-8); the limit is 65536 bytes", "\(String(describing: refusal))")
        #expect(spent < 1.5, "the daemon spent \(spent) s of CPU on the refusal")
        #expect(try fixture.property("main", "Messages").value as? [String] == [])
        #expect(try fixture.render(columns: 5, at: DaemonFixture.now()).text.count == 5)
    }

    /// Left-to-right, right-to-left and Arabic letter marks are bidi controls like U+202E.
    @Test(arguments: ["\u{200E}", "\u{200F}", "\u{061C}"])
    func aBidiMarkIsInvalidText(mark: String) throws {
        let fixture = try DaemonFixture()
        let output = try fixture.gdbus(DaemonFixture.managerPath, DaemonFixture.control + ".Post", ["main", "'a\(mark)b'", "{}"])
        #expect(output.status != 0)
        #expect(output.stderr.contains(Self.error + "InvalidText"), "\(output.stderr)")
        #expect(output.stderr.contains("(bidi control) at index 1"), "\(output.stderr)")
    }

    /// Over the length limit is `LimitExceeded` (docs/dbus-api.md), said in one unit.
    @Test func anOverlongTextIsLimitExceededInCharacters() throws {
        let fixture = try DaemonFixture()
        let text = String(repeating: "é", count: 4097)
        let output = try fixture.gdbus(DaemonFixture.managerPath, DaemonFixture.control + ".Post", ["main", "'\(text)'", "{}"])
        #expect(output.stderr.contains(Self.error + "LimitExceeded: text is 4097 characters (grapheme clusters) long; "
            + "the limit is 4096 characters"), "\(output.stderr)")
    }

    /// `cycle` obeys the speed limit: 1 µs was accepted and the Timeline said 7.1e7 cells/s.
    @Test func aCycleFasterThanTheSpeedLimitIsRefused() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post(String(repeating: "wide tape ", count: 40))
        let refused = try fixture.callFailing("Configure", "sa{sv}", ["main", "1", "cycle", "x", "1"])
        #expect(refused.contains("cycle must be at least 100 microseconds"), "\(refused)")
        #expect(try fixture.property("main", "Timeline").dictionary["speed"] as? Double == 8)

        // The shortest cycle is accepted; a tape too wide for it moves at the speed limit.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "cycle", "x", "100"])
        let timeline = try fixture.property("main", "Timeline").dictionary
        #expect(timeline["cycle"] as? NSNumber == 100)
        #expect(timeline["speed"] as? Double == 10_000)
    }

    /// A marquee label's curve names: `SetValue … easing=easeOut` answered InvalidOption.
    @Test func aLabelsEasingNamesAreAccepted() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "count", "42", "1", "easing", "s", "easeOut"])
        _ = try fixture.call("Configure", "sa{sv}", ["main", "2", "mode", "s", "scroll", "easing", "s", "easeInOut"])
        #expect(try fixture.property("main", "Timeline").dictionary["easing"] as? String == "easeInOutQuad")
        let refused = try fixture.callFailing("Configure", "sa{sv}", ["main", "1", "easing", "s", "easeinout"])
        #expect(refused.contains("easeIn, easeOut, easeInOut"), "\(refused)")
    }

    /// A counter's prefix and suffix are shown in every frame: they obey the rules of posted text
    /// (an escape sequence or a bidi override went straight into the frames).
    @Test func aCountersPrefixAndSuffixObeyTheTextRules() throws {
        let fixture = try DaemonFixture()
        for (option, text) in [("prefix", "\u{1B}[31m"), ("suffix", "\u{202E}x")] {
            let output = try fixture.gdbus(DaemonFixture.managerPath, DaemonFixture.control + ".SetValue",
                                           ["main", "n", "1.0", "{'\(option)': <'\(text)'>}"])
            #expect(output.stderr.contains(Self.error + "InvalidText: SetValue option '\(option)': text contains U+"),
                    "\(output.stderr)")
        }
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "mode", "s", "static"])
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "n", "42", "2", "prefix", "s", "$", "suffix", "s", " users"])
        _ = try fixture.post("{n} online")
        let frame = try fixture.render(columns: 20, at: DaemonFixture.now())
        #expect(frame.text.hasPrefix("$42 users online"), "\(frame.text)")
    }

    /// A variant inside an option's variant (gdbus `<<'dots'>>`) was unwrapped and accepted. It is
    /// a value of the wrong type: every method with options refuses it with `InvalidOption`
    /// naming the key, and changes nothing; the value sent in one variant is accepted.
    @Test func aVariantInsideAnOptionsVariantIsRefusedNamingTheKey() throws {
        let fixture = try DaemonFixture()
        let manager = DaemonFixture.managerPath
        let control = DaemonFixture.control
        let channel = DaemonFixture.channelPath("main")
        let subscribe = DaemonFixture.channelInterface + ".Subscribe"
        _ = try fixture.post("kept as it is", options: ["id", "s", "kept", "priority", "i", "1"])
        let refusals: [(path: String, method: String, arguments: [String], said: String)] = [
            (manager, control + ".Post", ["main", "'Working...'", "{'effect': <<'dots'>>}"], "Post option 'effect'"),
            (manager, control + ".Update", ["kept", "{'priority': <<int32 5>>}"], "Update option 'priority'"),
            (manager, control + ".Configure", ["main", "{'columns': <<uint32 24>>}"], "Configure option 'columns'"),
            (manager, control + ".SetValue", ["main", "n", "1.0", "{'decimals': <<uint32 2>>}"], "SetValue option 'decimals'"),
            (channel, subscribe, ["{'fps': <<10.0>>}"], "Subscribe option 'fps'"),
        ]
        for refusal in refusals {
            let output = try fixture.gdbus(refusal.path, refusal.method, refusal.arguments)
            #expect(output.status != 0, "\(refusal.method) accepted \(refusal.arguments): \(output.stdout)")
            #expect(output.stderr.contains(Self.error + "InvalidOption: \(refusal.said) must be of type "),
                    "\(refusal.method): \(output.stderr)")
            #expect(output.stderr.contains("got a variant holding a variant"), "\(refusal.method): \(output.stderr)")
        }
        // Nothing changed: busctl sees the one message as it was, the default columns and no
        // subscriber.
        let list = try fixture.call("List", "s", [""])
        let entries = try #require((list.data.first as? [Any]), "\(list.data)")
        #expect(entries.count == 1, "\(entries)")
        let fields = try #require((entries.first as? [Any])?.last as? [String: Any])
        #expect((fields["priority"] as? [String: Any])?["data"] as? Int == 1, "\(fields)")
        #expect(try fixture.property("main", "Columns").value as? Int == 80)
        #expect(try fixture.property("main", "Subscribers").value as? Int == 0)
        #expect(try fixture.property("main", "Text").value as? String == "kept as it is")

        // The same values, each in the dictionary's own variant, are taken.
        let accepted: [(path: String, method: String, arguments: [String])] = [
            (manager, control + ".Post", ["main", "'Working...'", "{'effect': <'dots'>}"]),
            (manager, control + ".Update", ["kept", "{'priority': <int32 5>}"]),
            (manager, control + ".Configure", ["main", "{'columns': <uint32 24>}"]),
            (manager, control + ".SetValue", ["main", "n", "1.0", "{'decimals': <uint32 2>}"]),
        ]
        for call in accepted {
            let output = try fixture.gdbus(call.path, call.method, call.arguments)
            #expect(output.status == 0, "\(call.method) \(call.arguments): \(output.stderr)")
        }
        #expect(try fixture.property("main", "Columns").value as? Int == 24)
    }

    /// The file's messages are counted from 1 in errors and in default ids alike: the second
    /// `[[message]]` is `config-2` and its errors say `message[2]` (they said `message[1]`, the
    /// id of the first).
    @Test func aFileErrorNamesTheMessageAsItsDefaultIdCountsIt() throws {
        let good = "[[message]]\ntext = \"first\"\n\n[[message]]\ntext = \"second\"\n"
        let fixture = try DaemonFixture(config: good)
        #expect(try fixture.property("main", "Messages").value as? [String] == ["config-1", "config-2"])

        try fixture.daemon.writeConfig("[[message]]\ntext = \"first\"\n\n[[message]]\ntext = \"second\"\nttl = \"soon\"\n")
        let output = try fixture.gdbus(DaemonFixture.managerPath, "\(DaemonFixture.control).Reload", [])
        #expect(output.status != 0)
        #expect(output.stderr.contains(Self.error + "InvalidConfig: "), "\(output.stderr)")
        #expect(output.stderr.contains("tickerd.toml:6: message[2].ttl: not a time span"), "\(output.stderr)")
        #expect(try fixture.property("main", "Messages").value as? [String] == ["config-1", "config-2"])
    }

    /// A file of NULs read as an empty configuration and dropped the file's messages; and a bad
    /// file on SIGHUP was logged twice. Now it is refused, logged once, and nothing is lost.
    @Test func aNULFileOnSIGHUPIsRefusedOnceAndKeepsTheMessages() throws {
        let good = "[[message]]\nid = \"kept\"\ntext = \"from the file\"\n"
        let fixture = try DaemonFixture(config: good)
        #expect(try fixture.property("main", "Messages").value as? [String] == ["kept"])

        try fixture.daemon.writeConfig("\u{0}\u{0}\u{0}")
        fixture.daemon.signal(SIGHUP)
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) { $0.contains("a NUL byte") })
        #expect(try fixture.property("main", "Messages").value as? [String] == ["kept"])

        // A good file after it: its "reloaded" line comes after anything the bad one logged.
        try fixture.daemon.writeConfig(good)
        fixture.daemon.signal(SIGHUP)
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) { $0.contains("configuration reloaded") })
        let log = fixture.daemon.process.standardError
        #expect(log.components(separatedBy: "a NUL byte").count == 2, "\(log)")
        #expect(log.contains("tickerd.toml:1: column 1: a NUL byte (U+0000)"), "\(log)")
        #expect(try fixture.property("main", "Messages").value as? [String] == ["kept"])
    }
}
