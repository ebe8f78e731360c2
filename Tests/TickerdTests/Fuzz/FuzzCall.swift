import DBus

/// One method call of the D-Bus fuzzer: where it goes, what it carries, whether it wants a reply.
struct FuzzCall: CustomStringConvertible {
    /// The object path.
    var path: String
    /// The interface (nil: the daemon looks the member up on every interface of the object).
    var interface: String?
    /// The method name.
    var member: String
    /// The arguments, of any signature.
    var arguments: [DBusValue]
    /// False for calls flagged NO_REPLY_EXPECTED (the daemon must then send nothing).
    var expectsReply = true

    var description: String {
        let signature = arguments.map(\.type.signature).joined()
        let shown = arguments.map { value -> String in
            let text = "\(value)"
            return text.count > 120 ? String(text.prefix(120)) + "…(\(text.utf8.count) bytes)" : text
        }
        return "\(interface ?? "-").\(member) on \(path) '\(signature)' \(shown)\(expectsReply ? "" : " [no reply]")"
    }
}

/// Makes random calls to every method of every interface tickerd serves: mostly the right
/// signature with hostile values (so the daemon's own checks run), sometimes a wrong signature,
/// an unknown member, interface or object, or a call that wants no reply.
struct FuzzCallMaker {
    static let manager = DaemonFixture.managerPath
    static let control = DaemonFixture.control
    static let managerInterface = DaemonFixture.managerInterface
    static let channel = DaemonFixture.channelInterface
    static let properties = "org.freedesktop.DBus.Properties"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let peer = "org.freedesktop.DBus.Peer"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// The value generator.
    var values: HostileValues
    /// Ids the daemon returned from Post, so Update/Remove/replace hit real messages too.
    var knownIDs: [String] = []

    /// A maker drawing from the sequence of `seed`.
    init(seed: UInt64) { values = HostileValues(seed: seed) }

    /// The next call.
    mutating func next() -> FuzzCall {
        var call = wellTyped()
        switch values.int(0...99) {
        case 0...11: call.arguments = values.randomArguments()  // wrong signature (usually)
        case 12...13: call.member = values.pick(["Frobnicate", "post", "Post2", "Get", "Render", "Introspect"])
        case 14...15: call.interface = values.pick([nil, "io.github.tickerd.Ticker1.Nope", Self.managerInterface])
        case 16...17: call.path = values.pick(["/", "/io", "/io/github/tickerd/Ticker1/channel", "/io/github/tickerd/Ticker1/channel/nope_\(values.int(0...9))", "/a/b/c"])
        case 18...20: call.expectsReply = false
        default: break
        }
        return call
    }

    private func channelPath(_ name: String) -> String {
        "\(Self.manager)/channel/\(name)"
    }

    /// A call of a real method with its declared signature and hostile values.
    private mutating func wellTyped() -> FuzzCall {
        let existingChannel = values.pick(["main", "main", "fz0", "fz1", "fz\(values.int(0...9))"])
        switch values.int(0...21) {
        case 0...4:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "Post", arguments: [
                .string(values.channelName()), .string(values.text()), .vardict(messageOptions(update: false)),
            ])
        case 5:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "Update", arguments: [
                .string(values.messageID(known: knownIDs)), .vardict(messageOptions(update: true)),
            ])
        case 6:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "Remove",
                            arguments: [.string(values.messageID(known: knownIDs))])
        case 7:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "List",
                            arguments: [.string(values.chance(0.3) ? "" : values.channelName())])
        case 8:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "SetValue", arguments: [
                .string(values.channelName()), .string(values.pick(["n", "count", "x", "", "a b", values.shortString()])),
                .double(values.double()), .vardict(counterOptions()),
            ])
        case 9...10:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "Configure",
                            arguments: [.string(values.channelName()), .vardict(configureOptions())])
        case 11:
            return FuzzCall(path: Self.manager, interface: Self.control, member: values.pick(["Pause", "Resume"]),
                            arguments: [.string(values.channelName())])
        case 12:
            return FuzzCall(path: Self.manager, interface: Self.control, member: "Reload", arguments: [])
        case 13...14:
            return FuzzCall(path: channelPath(existingChannel), interface: Self.channel, member: "Render",
                            arguments: [.uint32(values.uint32()), .int64(values.chance(0.3) ? 0 : values.int64())])
        case 15:
            return FuzzCall(path: channelPath(existingChannel), interface: Self.channel, member: "Subscribe",
                            arguments: [.vardict(subscribeOptions())])
        case 16:
            return FuzzCall(path: channelPath(existingChannel), interface: Self.channel, member: "Unsubscribe", arguments: [])
        case 17...18:
            let onChannel = values.chance(0.6)
            let path = onChannel ? channelPath(existingChannel) : Self.manager
            let interface = values.pick([Self.channel, Self.managerInterface, Self.control, Self.properties, "", "x.y", values.shortString()])
            let property = values.pick([
                "Name", "Text", "Timeline", "Columns", "FrameRate", "Messages", "Paused", "Subscribers", "Frame",
                "Version", "Channels", "Nope", "", values.shortString(),
            ])
            switch values.int(0...2) {
            case 0:
                return FuzzCall(path: path, interface: Self.properties, member: "Get",
                                arguments: [.string(interface), .string(property)])
            case 1:
                return FuzzCall(path: path, interface: Self.properties, member: "GetAll", arguments: [.string(interface)])
            default:
                return FuzzCall(path: path, interface: Self.properties, member: "Set", arguments: [
                    .string(interface), .string(property), .variant(values.value(of: values.type())),
                ])
            }
        case 19:
            return FuzzCall(path: values.pick([Self.manager, channelPath(existingChannel), "/", "/io/github"]),
                            interface: Self.introspectable, member: "Introspect", arguments: [])
        case 20:
            return FuzzCall(path: values.pick([Self.manager, channelPath(existingChannel), "/"]), interface: Self.peer,
                            member: values.pick(["Ping", "GetMachineId"]), arguments: [])
        default:
            return FuzzCall(path: values.pick([Self.manager, channelPath(existingChannel)]), interface: Self.objectManager,
                            member: "GetManagedObjects", arguments: [])
        }
    }

    // MARK: Option dictionaries

    /// `value` for an `a{sv}` entry (`vardict` wraps it in the variant), sometimes replaced by a
    /// value of a random type or wrapped in a second variant.
    private mutating func variant(_ value: DBusValue) -> DBusValue {
        if values.chance(0.1) { return values.value(of: values.type()) }
        if values.chance(0.03) { return .variant(value) }
        return value
    }

    /// A dictionary of some of `fields` (key → value maker), sometimes with an unknown key.
    private mutating func options(_ fields: [(String, (inout FuzzCallMaker) -> DBusValue)]) -> [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        for (key, make) in fields where values.chance(0.25) {
            result[key] = variant(make(&self))
        }
        if values.chance(0.05) {
            result[values.pick(["colour", "ID", "ttl ", "", "frame_rate", values.shortString()])] = variant(.int32(1))
        }
        return result
    }

    private mutating func messageOptions(update: Bool) -> [String: DBusValue] {
        var fields: [(String, (inout FuzzCallMaker) -> DBusValue)] = [
            ("priority", { .int32($0.values.int32()) }),
            ("urgent", { .bool($0.values.chance(0.5)) }),
            ("ttl", { .int64($0.values.int64()) }),
            ("start", { .int64($0.values.int64()) }),
            ("end", { .int64($0.values.int64()) }),
            ("calendar", { .string($0.values.calendar()) }),
            ("duration", { .int64($0.values.int64()) }),
            ("effect", { .string($0.values.pick(["reveal", "dots", "", "sparkle", "Reveal"])) }),
            ("reveal", { .int64($0.values.int64()) }),
        ]
        if update {
            fields.append(("text", { .string($0.values.text()) }))
        } else {
            fields.append(("id", { .string($0.values.messageID(known: $0.knownIDs)) }))
        }
        return options(fields)
    }

    private mutating func configureOptions() -> [String: DBusValue] {
        options([
            ("mode", { .string($0.values.pick(["continuous", "scroll", "bounce", "static", "pages", "sideways", ""])) }),
            ("speed", { .double($0.values.double()) }),
            ("cycle", { .int64($0.values.int64()) }),
            ("delay", { .int64($0.values.int64()) }),
            ("easing", { .string($0.values.pick(["linear", "ease-in", "ease-out", "ease-in-out", "bouncy", ""])) }),
            ("loops", { .uint32($0.values.uint32()) }),
            ("direction", { .string($0.values.pick(["left", "right", "up", ""])) }),
            ("align", { .string($0.values.pick(["left", "center", "right", "justify"])) }),
            ("separator", { .string($0.values.shortString()) }),
            ("gap", { .string($0.values.shortString()) }),
            ("columns", { .uint32($0.values.uint32()) }),
            ("frame-rate", { .double($0.values.double()) }),
        ])
    }

    private mutating func counterOptions() -> [String: DBusValue] {
        options([
            ("duration", { .int64($0.values.int64()) }),
            ("easing", { .string($0.values.pick(["linear", "ease-out", "nope"])) }),
            ("from", { .double($0.values.double()) }),
            ("decimals", { .uint32($0.values.uint32()) }),
            ("grouping", { .bool($0.values.chance(0.5)) }),
            ("prefix", { .string($0.values.shortString()) }),
            ("suffix", { .string($0.values.shortString()) }),
        ])
    }

    private mutating func subscribeOptions() -> [String: DBusValue] {
        options([
            ("columns", { .uint32($0.values.uint32()) }),
            ("fps", { .double($0.values.double()) }),
        ])
    }
}
