import DBus
import TickerModel

/// The daemon's D-Bus surface: declarative tables of the `Manager`, `Control` and `Channel`
/// interfaces over the `Manager`, and the observer that turns its events into signals and
/// PropertiesChanged. It computes nothing itself: every value comes from the manager.
final class BusSurface: ManagerObserver {
    /// The daemon version reported in `Version`.
    static let version = "0.1.0"

    private let connection: Connection
    private let manager: Manager
    private let managerPath: ObjectPath
    private let frameSignals = FrameSignalCache()
    /// Called by `Reload()`; throws `InvalidConfig` when the file is bad.
    var onReload: (() throws(TickerError) -> Void)?
    /// Called after every change that may move the next wake-up (the daemon re-arms its timer).
    var onChange: (() -> Void)?
    /// Called when sending fails for a reason worth logging.
    var onError: ((String) -> Void)?
    /// Called with every event after it was published (the daemon logs the ones that are news).
    var onEvent: ((ManagerEvent) -> Void)?
    /// Drops frames while the bus is not reading what the daemon already queued.
    private var backpressure = FrameBackpressure()
    /// Events of the change being delivered, for `onEvent` once all of its signals are out.
    private var deliveredEvents: [ManagerEvent] = []
    /// Whether an `onChange` call is already queued for the end of the current dispatch.
    private var changePending = false

    /// A surface for `manager` on `connection`.
    init(connection: Connection, manager: Manager) throws {
        self.connection = connection
        self.manager = manager
        self.managerPath = try ObjectPath(BusNames.managerPath)
    }

    /// Exports the manager object (with ObjectManager) and one object per existing channel.
    func export() throws {
        connection.addObjectManager(at: managerPath)
        try connection.export([managerInterface(), controlInterface()], at: managerPath)
        for name in manager.channels.keys.sorted() {
            try exportChannel(name)
        }
    }

    // MARK: ManagerObserver

    func manager(_ manager: Manager, didEmit event: ManagerEvent) {
        do {
            switch event {
            case let .channelAdded(name):
                try exportChannel(name)
                try connection.propertiesChanged(path: managerPath, interface: BusNames.managerInterface, names: ["Channels"])
            case let .channelChanged(name, changes):
                try channelPropertiesChanged(name, changes)
            case let .messageStarted(channel, id):
                try connection.emitSignal(
                    path: managerPath, interface: BusNames.managerInterface, member: "MessageStarted",
                    arguments: [.string(channel), .string(id)])
            case let .messageEnded(channel, id, reason):
                try connection.emitSignal(
                    path: managerPath, interface: BusNames.managerInterface, member: "MessageEnded",
                    arguments: [.string(channel), .string(id), .uint32(reason.rawValue)])
            case let .valueReached(channel, name, value):
                try connection.emitSignal(
                    path: managerPath, interface: BusNames.managerInterface, member: "ValueReached",
                    arguments: [.string(channel), .string(name), .double(value)])
            }
        } catch {
            onError?("could not publish \(event): \(error)")
        }
        if onEvent != nil { deliveredEvents.append(event) }
    }

    func managerDidDeliverEvents(_ manager: Manager) {
        // Log lines follow all of the change's signals and the reply to the call that made it
        // (they are written at the end of the current dispatch), so no one waits for them.
        let events = deliveredEvents
        deliveredEvents.removeAll()
        guard !events.isEmpty else { return }
        connection.loop.runSoon { [weak self] in
            for event in events { self?.onEvent?(event) }
        }
    }

    func manager(_ manager: Manager, sendFrame frame: Frame, channel: String, to destination: String?) -> Bool {
        guard backpressure.admits(queuedBytes: connection.outgoingBytes, log: { [weak self] in self?.onError?($0) }) else {
            return false
        }
        do {
            try connection.send(try frameSignals.signal(for: frame, channel: channel, to: destination))
            return true
        } catch {
            onError?("could not send a frame of '\(channel)': \(error)")
            return false
        }
    }

    // MARK: Interfaces

    private func managerInterface() -> Interface {
        Interface(
            BusNames.managerInterface,
            properties: [
                Property("Version", type: .string, emitsChangedSignal: .const) { .string(Self.version) },
                Property("Channels", type: .array(.objectPath)) { [unowned self] in
                    .objectPathArray(try manager.channels.keys.sorted().map(BusNames.channelPath))
                },
            ],
            signals: [
                SignalDescription("MessageStarted", arguments: [Argument("channel", .string), Argument("id", .string)]),
                SignalDescription(
                    "MessageEnded",
                    arguments: [Argument("channel", .string), Argument("id", .string), Argument("reason", .uint32)]),
                SignalDescription(
                    "ValueReached",
                    arguments: [Argument("channel", .string), Argument("name", .string), Argument("value", .double)]),
            ] + ActivationSurface.signals)
    }

    private func controlInterface() -> Interface {
        Interface(
            BusNames.controlInterface,
            methods: [
                Method(
                    "Post",
                    in: [Argument("channel", .string), Argument("text", .string), Argument("options", .vardict)],
                    out: [Argument("id", .string)]
                ) { [unowned self] call in
                    let request = try RequestParsing.post(try call.argument(2, \.vardictValue))
                    let id = try manager.post(
                        channel: try call.argument(0, \.stringValue), text: try call.argument(1, \.stringValue),
                        request: request)
                    changed()
                    return [.string(id)]
                },
                Method("Update", in: [Argument("id", .string), Argument("changes", .vardict)]) { [unowned self] call in
                    let changes = try RequestParsing.update(try call.argument(1, \.vardictValue))
                    try manager.update(id: try call.argument(0, \.stringValue), changes: changes)
                    changed()
                    return []
                },
                Method("Remove", in: [Argument("id", .string)]) { [unowned self] call in
                    try manager.remove(id: try call.argument(0, \.stringValue))
                    changed()
                    return []
                },
                Method(
                    "List", in: [Argument("channel", .string)], out: [Argument("messages", BusValues.listType)]
                ) { [unowned self] call, reply in
                    do {
                        let channel = try call.argument(0, \.stringValue)
                        if !channel.isEmpty { _ = try manager.existing(channel) }
                        ListReply.start(channel: channel, manager: manager, reply: reply, loop: connection.loop)
                    } catch {
                        reply.fail(error)
                    }
                },
                Method(
                    "SetValue",
                    in: [
                        Argument("channel", .string), Argument("name", .string), Argument("value", .double),
                        Argument("options", .vardict),
                    ]
                ) { [unowned self] call in
                    let options = try RequestParsing.setValue(try call.argument(3, \.vardictValue))
                    let value = try call.argument(2, \.doubleValue)
                    guard value.isFinite else { throw TickerError.invalidOption("SetValue needs a finite value, got \(value)") }
                    try manager.setValue(
                        channel: try call.argument(0, \.stringValue), name: try call.argument(1, \.stringValue),
                        value: value, options: options)
                    changed()
                    return []
                },
                Method("Configure", in: [Argument("channel", .string), Argument("settings", .vardict)]) {
                    [unowned self] call in
                    let (request, reset) = try RequestParsing.configure(try call.argument(1, \.vardictValue))
                    try manager.configure(channel: try call.argument(0, \.stringValue), request: request, reset: reset)
                    changed()
                    return []
                },
                Method("Pause", in: [Argument("channel", .string)]) { [unowned self] call in
                    try manager.pause(channel: try call.argument(0, \.stringValue))
                    changed()
                    return []
                },
                Method("Resume", in: [Argument("channel", .string)]) { [unowned self] call in
                    try manager.resume(channel: try call.argument(0, \.stringValue))
                    changed()
                    return []
                },
                Method("Reload") { [unowned self] _ in
                    try onReload?()
                    changed()
                    return []
                },
            ])
    }

    private func channelInterface(_ name: String) -> Interface {
        Interface(
            BusNames.channelInterface,
            methods: [
                Method(
                    "Render", in: [Argument("columns", .uint32), Argument("at", .int64)],
                    out: [Argument("text", .string), Argument("offset", .double), Argument("extras", .vardict)]
                ) { [unowned self] call in
                    let frame = try manager.render(
                        channel: name, columns: try call.argument(0, \.uint32Value), at: try call.argument(1, \.int64Value))
                    return BusValues.frameArguments(frame)
                },
                Method("Subscribe", in: [Argument("options", .vardict)]) { [unowned self] call in
                    let options = try RequestParsing.subscribe(try call.argument(0, \.vardictValue))
                    guard let sender = call.sender else { throw TickerError.invalidOption("a subscriber needs a bus name") }
                    try manager.subscribe(subscriber: sender, channel: name, columns: options.columns, fps: options.fps)
                    changed()
                    return []
                },
                Method("Unsubscribe") { [unowned self] call in
                    guard let sender = call.sender else { return [] }
                    try manager.unsubscribe(subscriber: sender, channel: name)
                    changed()
                    return []
                },
            ] + ActivationSurface.channelMethods(name, manager: manager, connection: connection, managerPath: managerPath),
            properties: [
                Property("Name", type: .string, emitsChangedSignal: .const) { .string(name) },
                Property("Text", type: .string) { [unowned self] in .string(try channel(name).text(at: manager.now)) },
                Property("Timeline", vardict: { [unowned self] writer in try BusValues.writeTimeline(try channel(name), to: &writer) }),
                Property("Columns", type: .uint32) { [unowned self] in .uint32(try channel(name).columns) },
                Property("FrameRate", type: .double) { [unowned self] in .double(try channel(name).frameRate) },
                // Announced by name: a channel's ids are many, MessageStarted and MessageEnded
                // already carry each one, and a listener that wants the list reads it.
                Property("Messages", type: .array(.string), emitsChangedSignal: .invalidates) { [unowned self] in
                    .stringArray(try channel(name).activeIDs)
                },
                Property("Paused", type: .bool) { [unowned self] in .bool(try channel(name).isPaused) },
                Property("Subscribers", type: .uint32) { [unowned self] in
                    .uint32(UInt32(manager.subscriberCount(channel: name)))
                },
                Property("Frame", type: .structure([.string, .double, .vardict]), emitsChangedSignal: .false) {
                    [unowned self] in
                    let state = try channel(name)
                    return BusValues.frameStruct(state.frame(columns: Int(state.columns), at: manager.now))
                },
            ],
            signals: [
                SignalDescription(
                    "Frame", arguments: [Argument("text", .string), Argument("offset", .double), Argument("extras", .vardict)])
            ])
    }

    // MARK: Helpers

    private func exportChannel(_ name: String) throws {
        try connection.export([channelInterface(name)], at: BusNames.channelPath(name))
    }

    private func channel(_ name: String) throws -> ChannelState {
        try manager.existing(name)
    }

    private func channelPropertiesChanged(_ name: String, _ changes: ChannelChanges) throws {
        let path = try BusNames.channelPath(name)
        var names: [String] = []
        if changes.contains(.text) { names.append("Text") }
        if changes.contains(.timeline) { names.append("Timeline") }
        if changes.contains(.messages) { names.append("Messages") }
        if changes.contains(.paused) { names.append("Paused") }
        if changes.contains(.columns) { names.append("Columns") }
        if changes.contains(.frameRate) { names.append("FrameRate") }
        if changes.contains(.subscribers) { names.append("Subscribers") }
        try connection.propertiesChanged(path: path, interface: BusNames.channelInterface, names: names)
    }

    /// Tells the owner the state changed (re-arm the wake-up, refresh `STATUS=`) once the
    /// current dispatch is over — after the reply to the call that made the change is sent — and
    /// once for all the calls dispatched together.
    private func changed() {
        guard !changePending else { return }
        changePending = true
        connection.loop.runSoon { [weak self] in
            guard let self else { return }
            changePending = false
            onChange?()
        }
    }
}
