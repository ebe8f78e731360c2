import DBus

/// What `tickerctl timeline` prints: a channel's state as a pixel client needs it.
struct TimelineState {
    /// `online`, `offline` (the daemon is not on the bus) or `missing` (no such channel).
    var state: String
    /// The channel's full text (the `Text` property), for tooltips.
    var text = ""
    /// How many messages are active.
    var messages = 0
    /// The `Timeline` property as JSON (`null` unless online).
    var timeline: JSONValue = .null

    /// What the digest covers: everything but `text`, which a counter changes while it counts
    /// (the Timeline already holds the count, so a client computes the text at any instant).
    private var digested: [(String, JSONValue)] {
        [("state", .string(state)), ("messages", .integer(Int64(messages))), ("timeline", timeline)]
    }

    /// A digest of the state but its text (FNV-1a over the JSON text): equal states have equal
    /// digests.
    var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in JSONValue.object(digested).text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The line printed: the state and its digest.
    var json: JSONValue {
        .object([("state", .string(state)), ("text", .string(text)), ("messages", .integer(Int64(messages))),
                 ("timeline", timeline), ("digest", .string(digest))])
    }
}

/// Reads a channel's state and waits for it to change, listening to the bus only (no polling).
///
/// It listens to the channel's and the manager's `PropertiesChanged` and to the daemon's name
/// changing owner; signals only wake it, every decision is taken on a fresh read.
final class TimelineWatch {
    private let loop: EventLoop
    private let connection: Connection
    private let channelPath: ObjectPath
    private var subscriptions: [SignalSubscription] = []
    private var nameWatcher: NameOwnerWatcher?
    private var woken = false
    private var declaredOwner: String?
    private var owner: String?

    /// How long a property read may take.
    static let readTimeout: Duration = .seconds(10)

    /// Connects to `selection` and starts listening for changes of `channel`.
    init(selection: BusSelection, channel: String) throws(ClientFailure) {
        do {
            channelPath = try TickerAPI.channelPath(channel)
        } catch {
            throw .usage(UsageError("invalid channel name '\(channel)'"))
        }
        do {
            loop = try EventLoop()
            connection = try Connection(bus: selection.bus, loop: loop)
        } catch {
            throw .cannotConnect(selection, DBusError(from: error))
        }
        do {
            for (path, interface) in [(channelPath, TickerAPI.channelInterface),
                                      (try TickerAPI.managerPath, TickerAPI.managerInterface)] {
                subscriptions.append(try connection.addMatch(MatchRule(
                    sender: TickerAPI.busName, interface: TickerAPI.propertiesInterface,
                    member: "PropertiesChanged", path: path, stringArguments: [0: interface])) {
                    [unowned self] _ in self.woken = true
                })
            }
            nameWatcher = try NameOwnerWatcher(connection: connection, name: TickerAPI.busName) {
                [unowned self] change in
                self.owner = change.newOwner
                self.woken = true
            }
        } catch {
            throw .cannotConnect(selection, DBusError(from: error))
        }
    }

    deinit {
        for subscription in subscriptions { subscription.cancel() }
        nameWatcher?.cancel()
        connection.close()
    }

    /// The channel's state now.
    func read() -> TimelineState {
        let reply: [DBusValue]
        do {
            reply = try connection.callBlocking(
                destination: TickerAPI.busName, path: channelPath, interface: TickerAPI.propertiesInterface,
                member: "GetAll", arguments: [.string(TickerAPI.channelInterface)], timeout: Self.readTimeout)
        } catch {
            let name = DBusError(from: error).name
            if name == DBusError.Names.unknownObject || name == DBusError.Names.unknownInterface
                || name == TickerAPI.errorPrefix + "NoSuchChannel" {
                return TimelineState(state: "missing")
            }
            return TimelineState(state: "offline")
        }
        guard let properties = reply.first?.vardictValue, let timeline = properties["Timeline"] else {
            return TimelineState(state: "offline")
        }
        return TimelineState(
            state: "online", text: properties["Text"]?.unwrappingVariant.stringValue ?? "",
            messages: properties["Messages"]?.unwrappingVariant.stringArrayValue?.count ?? 0,
            timeline: timeline.json)
    }

    /// Waits until something that may change the state happens (true) or `deadline` passes or
    /// the bus goes away (false). With `columns` above 0 it declares that width as an fps-0 viewer of the daemon
    /// that is on the bus, once per daemon instance; a daemon that refuses fps 0 is left alone.
    func waitForChange(until deadline: Deadline, declaring columns: UInt32) -> Bool {
        if columns > 0 { declare(columns) }
        woken = false
        var expired = false
        let timer = loop.schedule(at: deadline) { expired = true }
        defer { timer.cancel() }
        _ = loop.run(timeout: .seconds(86_400)) { woken || expired || !connection.isConnected }
        return woken && connection.isConnected
    }

    private func declare(_ columns: UInt32) {
        let current = owner ?? (try? connection.callBlocking(
            destination: "org.freedesktop.DBus", path: try ObjectPath("/org/freedesktop/DBus"),
            interface: "org.freedesktop.DBus", member: "GetNameOwner", arguments: [.string(TickerAPI.busName)],
            timeout: Self.readTimeout))?.first?.stringValue
        guard let current, current != declaredOwner else { return }
        declaredOwner = current
        let options = DBusValue.vardict(["fps": .double(0), "columns": .uint32(columns)])
        _ = try? connection.callBlocking(
            destination: TickerAPI.busName, path: channelPath, interface: TickerAPI.channelInterface,
            member: "Subscribe", arguments: [options], timeout: Self.readTimeout)
    }
}
