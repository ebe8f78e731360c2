import CDBus
import Glibc

/// A private connection to a message bus, driven by an ``EventLoop`` on the loop's thread.
///
/// It answers method calls on exported objects (``export(_:at:)``), delivers signals to match
/// handlers (``addMatch(_:registerWithBus:handler:)``), completes asynchronous calls
/// (``call(_:timeout:reply:)``) and reports the loss of the bus (``onDisconnect``). libdbus never
/// ends the process on a disconnect. Use it only on the loop's thread.
public final class Connection {
    /// Which bus to connect to.
    public enum Bus: Hashable, Sendable {
        /// The session bus (`DBUS_SESSION_BUS_ADDRESS`).
        case session
        /// The system bus.
        case system
        /// The bus at a D-Bus address such as `unix:path=/run/…` (then `Hello` registers us).
        case address(String)
    }

    let raw: OpaquePointer
    /// The loop the connection runs on.
    public let loop: EventLoop
    /// The unique name the bus gave this connection, e.g. `:1.42`.
    public let uniqueName: String
    private let bridge: LibdbusEventBridge
    let router: MessageRouter
    /// Whether ``close()`` has not been called yet.
    public private(set) var isOpen = true

    /// Called once on the loop when the bus goes away (the daemon saves and exits).
    public var onDisconnect: (() -> Void)? {
        get { router.onDisconnect }
        set { router.onDisconnect = newValue }
    }

    /// Connects to `bus`, registers with it and hooks the connection to `loop`.
    /// Call it on `loop`'s thread. Throws the bus's error (e.g. `…Error.FileNotFound`).
    public init(bus: Bus, loop: EventLoop) throws {
        loop.assertInLoopThread()
        guard libdbusThreadsReady else { throw DBusError.noMemory }
        let (opened, openError): (OpaquePointer?, DBusError?)
        switch bus {
        case .session:
            (opened, openError) = withLibdbusError { dbus_bus_get_private(DBUS_BUS_SESSION, $0) }
        case .system:
            (opened, openError) = withLibdbusError { dbus_bus_get_private(DBUS_BUS_SYSTEM, $0) }
        case .address(let address):
            try NameValidation.checkString(address)
            (opened, openError) = withLibdbusError { dbus_connection_open_private(address, $0) }
        }
        guard let connection = opened else {
            throw openError ?? DBusError.failed("cannot connect to the bus")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        // Peer calls come to our dispatcher rather than libdbus's built-in answer, which replies to
        // GetMachineId even when the caller asked for no reply.
        dbus_connection_set_route_peer_messages(connection, 1)
        if case .address = bus {
            let (registered, registerError) = withLibdbusError { dbus_bus_register(connection, $0) }
            guard registered != 0 else {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
                throw registerError ?? DBusError.failed("cannot register with the bus")
            }
        }
        guard let name = dbus_bus_get_unique_name(connection) else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw DBusError.failed("the bus gave no unique name")
        }
        raw = connection
        self.loop = loop
        uniqueName = String(cString: name)
        bridge = LibdbusEventBridge(loop: loop, connection: connection)
        router = MessageRouter()
        router.connection = self
        do {
            try router.install(on: connection)
            try bridge.install()
        } catch {
            router.uninstall(from: connection)
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw error
        }
    }

    deinit {
        close()
        dbus_connection_unref(raw)
    }

    /// Whether the connection is still connected to the bus.
    public var isConnected: Bool { isOpen && dbus_connection_get_is_connected(raw) != 0 }

    /// Sends what is queued, unhooks from the loop and closes the connection. Idempotent.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        if dbus_connection_get_is_connected(raw) != 0 {
            dbus_connection_flush(raw)
        }
        router.uninstall(from: raw)
        bridge.uninstall()
        dbus_connection_close(raw)
    }

    /// Blocks until every queued outgoing message has been written.
    public func flush() {
        guard isOpen else { return }
        dbus_connection_flush(raw)
    }

    /// Queues `message` for sending (it is written as soon as the socket takes it) and returns
    /// its serial. Throws `Disconnected` when the connection is closed.
    @discardableResult
    public func send(_ message: Message) throws -> UInt32 {
        guard isConnected else { throw DBusError.disconnected() }
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, message.raw, &serial) != 0 else { throw DBusError.noMemory }
        return serial
    }

    /// Bytes of messages queued on this connection and not yet written to the socket (they grow
    /// while the bus does not read; a sender of optional traffic can hold back on them).
    public var outgoingBytes: Int {
        guard isOpen else { return 0 }
        return Int(dbus_connection_get_outgoing_size(raw))
    }

    /// Whether values of `type` (e.g. ``DBusType/unixFD``) can travel on this connection.
    public func canSend(_ type: DBusType) -> Bool {
        dbus_connection_can_send_type(raw, type.typeCode) != 0
    }

    /// Called by the router when libdbus reports the disconnect.
    func handleDisconnected() {
        guard let onDisconnect = router.onDisconnect else { return }
        router.onDisconnect = nil
        onDisconnect()
    }
}
