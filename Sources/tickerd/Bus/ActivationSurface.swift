import DBus
import TickerModel

/// The members links and activation add to the bus surface: `Channel.MessageAt`,
/// `Channel.Activate` and the `Manager.Activated` signal (docs/dbus-api.md).
enum ActivationSurface {
    /// The `Activated(s channel, s id)` signal of the Manager interface.
    static let signals = [
        SignalDescription("Activated", arguments: [Argument("channel", .string), Argument("id", .string)])
    ]

    /// The channel methods of channel `name`: `MessageAt(u columns, u column, x at) → (s id, s link)`
    /// and `Activate(s id)`, which emits `Activated` from `managerPath`.
    static func channelMethods(
        _ name: String, manager: Manager, connection: Connection, managerPath: ObjectPath
    ) -> [Method] {
        [
            Method(
                "MessageAt", in: [Argument("columns", .uint32), Argument("column", .uint32), Argument("at", .int64)],
                out: [Argument("id", .string), Argument("link", .string)]
            ) { [unowned manager] call in
                let found = try manager.message(
                    channel: name, columns: try call.argument(0, \.uint32Value), column: try call.argument(1, \.uint32Value),
                    at: try call.argument(2, \.int64Value))
                return [.string(found.id), .string(found.link)]
            },
            Method("Activate", in: [Argument("id", .string)]) { [unowned manager, unowned connection] call in
                let id = try call.argument(0, \.stringValue)
                try manager.activate(channel: name, id: id)
                try connection.emitSignal(
                    path: managerPath, interface: BusNames.managerInterface, member: "Activated",
                    arguments: [.string(name), .string(id)])
                return []
            },
        ]
    }
}
