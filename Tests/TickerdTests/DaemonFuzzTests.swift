import DBus
import Foundation
import TestSupport
import Testing
import TickerModel
import TickerNames

/// Issue 10, "Bad input": thousands of seeded random calls on the daemon's D-Bus surface — every
/// method of Control, Channel, Properties, Introspectable, Peer and ObjectManager, right and wrong
/// signatures, hostile strings, NaN and infinite doubles, extreme integers, unknown keys, wrong
/// variant types, invalid calendars and channel names. Each call must get exactly one reply (a
/// return or a named error, never `Failed` or a timeout) within ``replyDeadline``, the daemon must stay up,
/// and its state must stay valid: List and Render work and every frame is exactly as wide as asked.
///
/// `TICKERD_FUZZ_SEED` and `TICKERD_FUZZ_CALLS` replay or lengthen a run.
@Suite(.serialized) struct DaemonFuzzTests {
    static let service = DaemonFixture.service
    static let busDriver = "org.freedesktop.DBus"

    /// How long a random call may wait for its reply. Alone the slowest of the 5000 takes about
    /// 50 ms; with the whole suite running in parallel on 2 cores a Configure once took over 1 s.
    /// A call the daemon never answers still fails.
    static let replyDeadline = Duration.seconds(5)

    /// Error names a well-behaved daemon may answer bad input with.
    static let allowedErrors: Set<String> = [
        "org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
        "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly",
    ]

    /// Whether `name` is an error the daemon may answer (its own, except StorageFailed: the disk is fine here).
    static func isAllowed(_ name: String) -> Bool {
        allowedErrors.contains(name)
            || (name.hasPrefix(TickerErrorName.prefix) && name != TickerErrorName.prefix + "StorageFailed")
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["TICKERD_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x71C4_E4D0_2026_1123
    }

    static var callCount: Int {
        ProcessInfo.processInfo.environment["TICKERD_FUZZ_CALLS"].flatMap { Int($0) } ?? 5000
    }

    @Test func randomCallsEachGetExactlyOneNamedReplyPromptly() throws {
        let fixture = try DaemonFixture()
        let client = try FuzzClient(address: fixture.address)
        let owner = try #require(try client.call(
            Self.busDriver, "/org/freedesktop/DBus", Self.busDriver, "GetNameOwner", [.string(Self.service)]).first?.stringValue)
        let monitor = try ReplyMonitor(address: fixture.address, destination: client.uniqueName)
        try waitUntilMonitoring(monitor, client: client)

        var maker = FuzzCallMaker(seed: Self.seed)
        var expectsReply: [UInt32: Bool] = [:]
        var described: [UInt32: String] = [:]
        var problems = 0
        var notSent = 0
        var slowest = (seconds: 0.0, call: "")
        for index in 0..<Self.callCount {
            let call = maker.next()
            let result = try client.send(call, to: Self.service, timeout: Self.replyDeadline)
            if result.serial != 0 {
                expectsReply[result.serial] = call.expectsReply
                described[result.serial] = call.description
            }
            if result.seconds > slowest.seconds { slowest = (result.seconds, call.description) }
            switch result.outcome {
            case let .returned(values):
                if call.member == "Post", let id = values.first?.stringValue, !maker.knownIDs.contains(id) {
                    maker.knownIDs.append(id)
                }
            case let .failed(error) where !Self.isAllowed(error.name):
                problems += 1
                Issue.record("seed \(Self.seed) call #\(index): \(call)\n→ \(error.name): \(error.message)")
            case .notSent:
                notSent += 1
            case .failed, .sentWithoutReply:
                break
            }
            if fixture.daemon.process.hasExited {
                Issue.record("tickerd died at call #\(index) (seed \(Self.seed)): \(call)\n\(fixture.daemon.process.standardError.suffix(12000))")
                return
            }
            if index % 250 == 249 { try checkState(client, seed: Self.seed ^ UInt64(index)) }
            if problems >= 10 { break }
        }
        #expect(notSent < Self.callCount / 20, "\(notSent) calls could not be built client-side")
        try checkState(client, seed: Self.seed)

        // Every call that wanted a reply got exactly one, from the daemon; the others got none.
        let marker = try client.send(
            FuzzCall(path: FuzzCallMaker.manager, interface: FuzzCallMaker.peer, member: "Ping", arguments: []),
            to: Self.service, timeout: .seconds(5))
        #expect(monitor.waitForReply(to: marker.serial))
        var repliesBySerial: [UInt32: Int] = [:]
        for reply in monitor.replies where reply.sender == owner {
            repliesBySerial[reply.replySerial, default: 0] += 1
        }
        for (serial, wanted) in expectsReply {
            let count = repliesBySerial[serial] ?? 0
            #expect(count == (wanted ? 1 : 0), "\(described[serial] ?? "?"): \(count) replies, wanted \(wanted ? 1 : 0)")
        }
        #expect(!repliesBySerial.values.contains { $0 > 1 })
        #expect(!fixture.daemon.process.hasExited)
        print("fuzz: seed \(Self.seed), \(expectsReply.count) calls sent, slowest \(slowest.seconds) s: \(slowest.call.prefix(200))")
    }

    /// A slice of the same bad input through independent peers (`busctl`, `dbus-send`): each is
    /// answered at once with a named error or a return, and the daemon is still there afterwards.
    @Test func independentPeersGetNamedAnswersToHostileCalls() throws {
        let fixture = try DaemonFixture()
        let path = DaemonFixture.managerPath
        let channel = DaemonFixture.channelPath("main")
        let control = DaemonFixture.control
        let busctlCalls: [[String]] = [
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "bidi \u{202E}override", "0"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "line\u{2028}sep", "0"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "ok", "1", "ttl", "x", "-9223372036854775808"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "ok", "1", "start", "x", "9223372036854775807"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "ok", "1", "priority", "s", "high"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "ok", "1", "colour", "s", "red"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "main", "x", "2", "calendar", "s", "*-*-* 25:00",
             "duration", "x", "1000"],
            ["call", Self.service, path, control, "Post", "ssa{sv}", "no/such", "x", "0"],
            ["call", Self.service, path, control, "Post", "ss", "main", "missing options"],
            ["call", Self.service, path, control, "SetValue", "ssda{sv}", "main", "n", "nan", "0"],
            ["call", Self.service, path, control, "SetValue", "ssda{sv}", "main", "n", "inf", "0"],
            ["call", Self.service, path, control, "Configure", "sa{sv}", "main", "1", "speed", "d", "-inf"],
            ["call", Self.service, path, control, "Configure", "sa{sv}", "main", "1", "delay", "x", "9223372036854775807"],
            // A delay this long overflowed the bounce and scroll motions' arithmetic (found by seed 1).
            ["call", Self.service, path, control, "Configure", "sa{sv}", "main", "2", "mode", "s", "bounce",
             "delay", "x", "4611686018427387904"],
            ["call", Self.service, path, control, "Configure", "sa{sv}", "main", "2", "mode", "s", "scroll",
             "delay", "x", "4611686018427387904"],
            // A cycle this long made a move duration that overflowed when doubled (found by seed 2).
            ["call", Self.service, path, control, "Configure", "sa{sv}", "main", "2", "mode", "s", "bounce",
             "cycle", "x", "9000000000000000000"],
            ["call", Self.service, channel, DaemonFixture.channelInterface, "Render", "ux", "1", "0"],
            ["call", Self.service, channel, DaemonFixture.channelInterface, "Render", "ux", "4294967295", "-9223372036854775808"],
            ["call", Self.service, channel, DaemonFixture.channelInterface, "Render", "ux", "80", "9223372036854775807"],
            ["call", Self.service, channel, DaemonFixture.channelInterface, "Subscribe", "a{sv}", "1", "fps", "d", "nan"],
            ["set-property", Self.service, channel, DaemonFixture.channelInterface, "Columns", "u", "7"],
            ["get-property", Self.service, channel, "org.example.Nope", "Columns"],
        ]
        for arguments in busctlCalls {
            let output = try ChildProcess.run(
                "busctl", ["--address=\(fixture.address)", "--timeout=1", "--"] + arguments, timeout: .seconds(20))
            if output.status != 0 {
                #expect(!output.stderr.contains("timed out"), "\(arguments): \(output.stderr)")
                #expect(!output.stderr.isEmpty, "\(arguments) failed without a message")
            }
            #expect(!fixture.daemon.process.hasExited, "tickerd died on busctl \(arguments)")
        }

        let sendCalls: [(String, String, [String])] = [
            (path, "\(control).Post", ["string:main", "string:text"]),
            (path, "\(control).Remove", ["string:\u{1B}[2J"]),
            (path, "\(control).List", ["int32:5"]),
            (path, "\(control).Pause", ["string:" + String(repeating: "p", count: 65)]),
            (path, "\(control).Reload", ["string:extra"]),
            (channel, "\(DaemonFixture.channelInterface).Render", ["uint32:0", "int64:0"]),
            (channel, "\(DaemonFixture.channelInterface).Render", ["double:nan", "int64:0"]),
            (channel, "org.freedesktop.DBus.Properties.Get", ["string:", "string:"]),
            (channel, "org.freedesktop.DBus.Peer.Ping", []),
            ("/no/such/object", "org.freedesktop.DBus.Introspectable.Introspect", []),
        ]
        for (objectPath, method, arguments) in sendCalls {
            let output = try ChildProcess.run("dbus-send", [
                "--bus=\(fixture.address)", "--print-reply", "--reply-timeout=1000", "--dest=\(Self.service)",
                objectPath, method,
            ] + arguments, timeout: .seconds(20))
            if output.status != 0 {
                let name = output.stderr.split(separator: ":").first.map { $0.replacingOccurrences(of: "Error ", with: "") } ?? ""
                #expect(Self.isAllowed(name.trimmingCharacters(in: .whitespaces)), "\(method) \(arguments): \(output.stderr)")
            }
        }
        #expect(!fixture.daemon.process.hasExited)
        #expect(try fixture.render(columns: 13, at: 0).text.count == 13)

        // A text that starts with a character joining the one before it (here VS16) would merge
        // with the padding and make frames a cell too wide (found by seed 2): refused by name.
        for text in ["\u{FE0F}x", "\u{0301}accent", "end 👍\u{200D}", "lone flag half 🇩", "x\u{0600}"] {
            #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(control).Post", ["main", text, "{}"])
                    == TickerErrorName.prefix + "InvalidText", "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// Megabyte texts are refused by name at once, however their clusters are built (3 MB of
    /// e + U+0301 took over a second to refuse, found by seed 3).
    @Test func megabyteTextsAreRefusedWithinASecond() throws {
        let fixture = try DaemonFixture()
        let client = try FuzzClient(address: fixture.address)
        // The last is one cluster: a letter and half a million combining marks.
        for piece in ["e\u{0301}", "x", "🚀", "👨‍👩‍👧", "\u{0301}"] {
            let text = (piece == "\u{0301}" ? "q" : "") + String(repeating: piece, count: (1 << 20) / piece.utf8.count)
            let call = FuzzCall(path: FuzzCallMaker.manager, interface: FuzzCallMaker.control, member: "Post",
                                arguments: [.string("main"), .string(text), .vardict([:])])
            let result = try client.send(call, to: Self.service, timeout: .seconds(1))
            guard case let .failed(error) = result.outcome else {
                Issue.record("a 1 MB text of \(piece.debugDescription) was not refused: \(result.outcome)")
                continue
            }
            #expect(error.name == TickerErrorName.prefix + "LimitExceeded", "\(piece.debugDescription): \(error)")
        }
        #expect(!fixture.daemon.process.hasExited)
    }

    // MARK: Helpers

    /// Pings through the monitor until it reports the reply: from then on it sees every reply.
    private func waitUntilMonitoring(_ monitor: ReplyMonitor, client: FuzzClient) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let ping = try client.send(
                FuzzCall(path: FuzzCallMaker.manager, interface: FuzzCallMaker.peer, member: "Ping", arguments: []),
                to: Self.service, timeout: .seconds(5))
            if monitor.waitForReply(to: ping.serial, timeout: .milliseconds(500)) { return }
        }
        throw TestSupportError("dbus-monitor never reported a reply")
    }

    /// The daemon's state is usable and consistent: Ping, List and the Channels property answer;
    /// every channel renders frames exactly `c` cells wide with an offset in [0, 1) and reads all
    /// its properties; every id on a channel's Messages is in List.
    private func checkState(_ client: FuzzClient, seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        _ = try client.call(Self.service, FuzzCallMaker.manager, FuzzCallMaker.peer, "Ping")
        let listed = try client.call(Self.service, FuzzCallMaker.manager, FuzzCallMaker.control, "List", [.string("")])
        let ids = Set((listed.first?.arrayValue ?? []).compactMap { $0.structureFields?.first?.stringValue })
        let channels = try client.call(
            Self.service, FuzzCallMaker.manager, FuzzCallMaker.properties, "Get",
            [.string(FuzzCallMaker.managerInterface), .string("Channels")])
        let paths = channels.first?.unwrappingVariant.arrayValue?.compactMap(\.objectPathValue) ?? []
        #expect(paths.contains { $0.rawValue.hasSuffix("/channel/main") })
        for path in paths {
            for columns in [1, Int.random(in: 2...40, using: &rng), 80, Int.random(in: 100...600, using: &rng)] {
                let frame = try client.call(
                    Self.service, path.rawValue, FuzzCallMaker.channel, "Render", [.uint32(UInt32(columns)), .int64(0)])
                let text = frame.first?.stringValue ?? ""
                let offset = frame.dropFirst().first?.doubleValue ?? -1
                #expect(CellWidth.of(text) == columns, "\(path) rendered \(CellWidth.of(text)) cells for \(columns): \(text.debugDescription)")
                #expect(offset >= 0 && offset < 1, "\(path) offset \(offset)")
            }
            let all = try client.call(Self.service, path.rawValue, FuzzCallMaker.properties, "GetAll", [.string(FuzzCallMaker.channel)])
            let properties = all.first?.vardictValue ?? [:]
            for id in properties["Messages"]?.unwrappingVariant.stringArrayValue ?? [] {
                #expect(ids.contains(id), "\(path) shows \(id), which List does not have")
            }
            #expect(properties.count == 9, "\(path) GetAll gave \(properties.keys.sorted())")
        }
    }
}

/// The prefix of tickerd's own error names.
enum TickerErrorName {
    static let prefix = TickerBus.errorPrefix
}
