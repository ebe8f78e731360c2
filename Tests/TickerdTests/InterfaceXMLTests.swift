import Foundation
import Testing
import TestSupport

/// `dbus-policy/interfaces/*.xml` against DESIGN.md §3, and the comparison the daemon's own
/// introspection will be checked with.
@Suite struct InterfaceXMLTests {
    /// DESIGN.md §3, written out by hand: one line a member.
    static let design: [String: Set<String>] = [
        "io.github.tickerd.Ticker1.Manager": [
            "property Version s read const",
            "property Channels ao read true",
            "signal MessageStarted(s channel, s id)",
            "signal MessageEnded(s channel, s id, u reason)",
            "signal ValueReached(s channel, s name, d value)",
            "signal Activated(s channel, s id)",
        ],
        "io.github.tickerd.Ticker1.Control": [
            "method Post(in s channel, in s text, in a{sv} options, out s id)",
            "method Update(in s id, in a{sv} changes)",
            "method Remove(in s id)",
            "method List(in s channel, out a(sa{sv}) messages)",
            "method SetValue(in s channel, in s name, in d value, in a{sv} options)",
            "method Configure(in s channel, in a{sv} settings)",
            "method Pause(in s channel)",
            "method Resume(in s channel)",
            "method Reload()",
        ],
        "io.github.tickerd.Ticker1.Channel": [
            "property Name s read const",
            "property Text s read true",
            "property Timeline a{sv} read true",
            "property Columns u read true",
            "property FrameRate d read true",
            "property Messages as read invalidates",
            "property Paused b read true",
            "property Subscribers u read true",
            "property Frame (sda{sv}) read false",
            "method Render(in u columns, in x at, out s text, out d offset, out a{sv} extras)",
            "method Subscribe(in a{sv} options)",
            "method Unsubscribe()",
            "method MessageAt(in u columns, in u column, in x at, out s id, out s link)",
            "method Activate(in s id)",
            "signal Frame(s text, d offset, a{sv} extras)",
        ],
    ]

    /// The one-line-a-member summary of `interface`, in the form of ``design``.
    static func summary(_ interface: InterfaceDescription) -> Set<String> {
        var lines: Set<String> = []
        for (name, method) in interface.methods {
            let arguments = method.arguments.map { "\($0.direction) \($0.type) \($0.name)" }
            lines.insert("method \(name)(\(arguments.joined(separator: ", ")))")
        }
        for (name, signal) in interface.signals {
            lines.insert("signal \(name)(\(signal.arguments.map { "\($0.type) \($0.name)" }.joined(separator: ", ")))")
        }
        for (name, property) in interface.properties {
            let emits = property.annotations[InterfaceDescription.emitsChangedSignal] ?? "?"
            lines.insert("property \(name) \(property.type) \(property.access) \(emits)")
        }
        return lines
    }

    @Test func eachFileDescribesTheInterfaceItIsNamedFor() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: InterfaceXML.folder).filter { $0.hasSuffix(".xml") }
        #expect(Set(files) == Set(Self.design.keys.map { $0 + ".xml" }))
        for file in files {
            let parsed = try InterfaceDescription.parse(String(contentsOfFile: InterfaceXML.folder + "/" + file, encoding: .utf8))
            #expect(Array(parsed.keys) == [String(file.dropLast(4))])
        }
    }

    @Test func interfacesAreTheDesignContract() throws {
        let contract = try InterfaceXML.contract()
        for (name, lines) in Self.design {
            let interface = try #require(contract[name])
            #expect(Self.summary(interface) == lines, "\(name)")
        }
    }

    @Test func differencesNameEveryChangedMember() throws {
        for original in try InterfaceXML.contract().values {
            #expect(original.differences(from: original).isEmpty)
            for (name, method) in original.methods {
                var changed = original
                changed.methods[name]?.arguments = method.arguments + [.init(name: "extra", type: "s", direction: "in")]
                #expect(changed.differences(from: original).contains { $0.contains(".\(name):") })
                changed = original
                changed.methods[name] = nil
                #expect(changed.differences(from: original) == ["\(original.name): method \(name) is missing"])
            }
            for (name, signal) in original.signals {
                var changed = original
                changed.signals[name]?.arguments = signal.arguments.map { .init(name: $0.name + "X", type: $0.type, direction: $0.direction) }
                #expect(changed.differences(from: original).count == (signal.arguments.isEmpty ? 0 : 1))
            }
            for (name, property) in original.properties {
                var changed = original
                changed.properties[name]?.annotations[InterfaceDescription.emitsChangedSignal] =
                    property.annotations[InterfaceDescription.emitsChangedSignal] == "false" ? "true" : "false"
                #expect(changed.differences(from: original).contains { $0.hasPrefix("\(original.name).\(name): property") })
                changed = original
                changed.properties[name]?.type = "v"
                #expect(changed.differences(from: original).count == 1)
            }
            var extra = original
            extra.methods["Surprise"] = .init(arguments: [], annotations: [:])
            #expect(extra.differences(from: original) == ["\(original.name): method Surprise is not in the contract"])
        }
    }

    /// The interfaces as tickerd serves them (``TickerdUnderTest``) agree with the XML files.
    @Test func liveIntrospectionAgreesWithTheFiles() throws {
        let bus = try PrivateBus()
        let files = try OwnedBus.daemonFiles()
        let daemon = try ChildProcess(TickerdUnderTest.executable, TickerdUnderTest.arguments(bus: bus.address, directory: files.path))
        defer {
            daemon.kill(SIGTERM)
            _ = try? daemon.wait(timeout: .seconds(10))
        }
        try BusPeers.waitForOwner(bus.address)
        for (path, interfaces) in [
            (BusPeers.managerPath, ["io.github.tickerd.Ticker1.Manager", "io.github.tickerd.Ticker1.Control"]),
            (BusPeers.mainChannelPath, ["io.github.tickerd.Ticker1.Channel"]),
        ] {
            let xml = try ChildProcess.run("gdbus", ["introspect", "--xml", "--address", bus.address,
                                                     "--dest", BusPeers.name, "--object-path", path])
            #expect(xml.status == 0, "\(xml.stderr)")
            #expect(try InterfaceXML.differences(introspection: xml.stdout, interfaces: interfaces) == [])
        }
    }
}
