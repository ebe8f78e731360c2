import DBus
import TickerNames

/// tickerd's `Control` calls as the lease manager makes them: asynchronous, answered on the loop.
///
/// Guarantees: calls go out in the order they are made on one connection, so tickerd applies
/// them in that order (a `Remove` never overtakes the `Post` it follows).
public final class TickerWriter {
    /// The connection to the bus tickerd serves.
    public let connection: Connection
    /// How long a call may take before it fails.
    static let timeout: Duration = .seconds(10)

    /// A writer on `connection`.
    public init(connection: Connection) {
        self.connection = connection
    }

    /// The `Post` options a source's item may carry as they are (``SourceItem/options``), and
    /// which `List` reports back.
    static let passedOptions: Set<String> = ["start", "effect", "reveal"]

    /// `Post(channel, text, options)` with the message's id and an end of `end`.
    func post(id: String, _ message: DesiredMessage, end: Int64, reply: @escaping (Result<Void, DBusError>) -> Void) {
        var options: [String: DBusValue] = [
            "id": .string(id), "priority": .int32(message.priority), "urgent": .bool(message.urgent),
            "end": .int64(end),
        ]
        if let link = message.link { options["link"] = .string(link) }
        options.merge(message.options) { own, _ in own }
        send("Post", [.string(message.channel), .string(message.text), .vardict(options)], reply)
    }

    /// `Update(id, changes)`: the fields of `message` that differ from `held` (all of them when
    /// `held` is nil) and the new end, with the message's `start` when it has one: window options
    /// replace the whole window, so a renewal of `end` alone would show a scheduled message at once.
    func update(
        id: String, _ message: DesiredMessage, from held: DesiredMessage?, end: Int64,
        reply: @escaping (Result<Void, DBusError>) -> Void
    ) {
        var changes: [String: DBusValue] = ["end": .int64(end)]
        if let start = message.start { changes["start"] = .int64(start) }
        if held?.text != message.text { changes["text"] = .string(message.text) }
        if held?.priority != message.priority { changes["priority"] = .int32(message.priority) }
        if held?.urgent != message.urgent { changes["urgent"] = .bool(message.urgent) }
        if (held?.link ?? "") != (message.link ?? "") { changes["link"] = .string(message.link ?? "") }
        send("Update", [.string(id), .vardict(changes)], reply)
    }

    /// `Remove(id)`.
    func remove(id: String, reply: @escaping (Result<Void, DBusError>) -> Void) {
        send("Remove", [.string(id)], reply)
    }

    /// `List("")`: every message tickerd holds, by id.
    func list(reply: @escaping (Result<[String: DesiredMessage], DBusError>) -> Void) {
        call("List", [.string("")]) { result in
            reply(result.map { arguments in
                var held: [String: DesiredMessage] = [:]
                for entry in arguments.first?.arrayValue ?? [] {
                    guard let fields = entry.structureFields, fields.count == 2, let id = fields[0].stringValue,
                          let options = fields[1].vardictValue else { continue }
                    held[id] = DesiredMessage(
                        channel: options["channel"]?.unwrappingVariant.stringValue ?? "",
                        text: options["text"]?.unwrappingVariant.stringValue ?? "",
                        priority: options["priority"]?.unwrappingVariant.int32Value ?? 0,
                        urgent: options["urgent"]?.unwrappingVariant.boolValue ?? false,
                        link: options["link"]?.unwrappingVariant.stringValue,
                        expires: nil,
                        options: options.filter { key, _ in Self.passedOptions.contains(key) }
                            .mapValues(\.unwrappingVariant))
                }
                return held
            })
        }
    }

    private func send(_ member: String, _ arguments: [DBusValue], _ reply: @escaping (Result<Void, DBusError>) -> Void) {
        call(member, arguments) { reply($0.map { _ in () }) }
    }

    private func call(
        _ member: String, _ arguments: [DBusValue], _ reply: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) {
        do {
            let path = try ObjectPath(TickerBus.managerPath)
            let message = try Message.methodCall(
                destination: TickerBus.name, path: path, interface: TickerBus.controlInterface, member: member)
            try message.append(arguments)
            try connection.call(message, timeout: Self.timeout) { result in
                reply(result.flatMap { message in
                    do { return .success(try message.arguments()) } catch { return .failure(DBusError(from: error)) }
                })
            }
        } catch {
            reply(.failure(DBusError(from: error)))
        }
    }
}
