import CDBus

/// The connection's one libdbus filter: method calls go to the exported objects, signals to the
/// match handlers, the local `Disconnected` signal to ``Connection/onDisconnect``. Replies to
/// pending calls never reach it (libdbus completes them first). `Peer` calls come here too
/// (`dbus_connection_set_route_peer_messages`) and are answered on any path.
final class MessageRouter {
    weak var connection: Connection?
    var onDisconnect: (() -> Void)?
    var subscriptions: [UInt64: SignalSubscription] = [:]
    var nextSubscriptionID: UInt64 = 1
    let objects = ObjectTree()
    private var installed = false

    private static let localPath = "/org/freedesktop/DBus/Local"
    private static let localInterface = "org.freedesktop.DBus.Local"

    func install(on connection: OpaquePointer) throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let added = dbus_connection_add_filter(connection, MessageRouter.filter, me, nil)
        guard added != 0 else { throw DBusError.noMemory }
        installed = true
    }

    func uninstall(from connection: OpaquePointer) {
        guard installed else { return }
        installed = false
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_remove_filter(connection, MessageRouter.filter, me)
    }

    private static let filter: DBusHandleMessageFunction = { _, message, data in
        guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let router = Unmanaged<MessageRouter>.fromOpaque(data).takeUnretainedValue()
        return router.route(Message(retaining: message))
    }

    private func route(_ message: Message) -> DBusHandlerResult {
        guard installed, let connection else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        switch message.kind {
        case .methodCall:
            connection.dispatchMethodCall(message)
            return DBUS_HANDLER_RESULT_HANDLED
        case .signal:
            if message.path?.rawValue == MessageRouter.localPath,
               message.interface == MessageRouter.localInterface,
               message.member == "Disconnected" {
                connection.handleDisconnected()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            deliverSignal(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    private func deliverSignal(_ message: Message) {
        let ordered = subscriptions.keys.sorted()
        var cachedArguments: [DBusValue]?
        for id in ordered {
            guard let subscription = subscriptions[id], subscription.isActive else { continue }
            if subscription.rule.matches(message, arguments: &cachedArguments) {
                subscription.handler(message)
            }
        }
    }
}
