import DBus
import TickerNames

/// A blocking client of the daemon: one private connection, calls that wait for their reply.
///
/// Each command makes a few calls and exits, so blocking calls keep it simple; `follow` uses its
/// own event-driven ``Follower`` instead.
final class DaemonClient {
    /// The loop the connection belongs to (run only by `follow`).
    let loop: EventLoop
    /// The connection to the bus.
    let connection: Connection
    /// The bus, for messages.
    let selection: BusSelection
    /// How long a call may take by default before it fails with `NoReply`.
    static let callTimeout: Duration = .seconds(10)
    /// How long this client's calls may take.
    let timeout: Duration

    /// Connects to `selection` on a loop owned by the calling thread; each call may take `timeout`.
    init(_ selection: BusSelection, timeout: Duration = callTimeout) throws(ClientFailure) {
        self.selection = selection
        self.timeout = timeout
        do {
            loop = try EventLoop()
            connection = try Connection(bus: selection.bus, loop: loop)
        } catch {
            throw .cannotConnect(selection, DBusError(from: error))
        }
    }

    deinit { connection.close() }

    /// Calls `interface.member` on `path` of the daemon and returns the reply's arguments.
    func call(
        _ member: String, interface: String, path: ObjectPath, arguments: [DBusValue] = []
    ) throws(ClientFailure) -> [DBusValue] {
        do {
            return try connection.callBlocking(
                destination: TickerAPI.busName, path: path, interface: interface, member: member,
                arguments: arguments, timeout: timeout)
        } catch {
            let failure = DBusError(from: error)
            // The daemon has no object for a channel that does not exist: say so in its words.
            if failure.name == DBusError.Names.unknownObject,
               path.rawValue.hasPrefix(TickerBus.channelPath("")), let name = path.elements.last {
                throw .noSuchChannel(String(name))
            }
            throw .daemon(failure, selection)
        }
    }

    /// Calls a method of the `Control` interface.
    @discardableResult
    func control(_ member: String, _ arguments: [DBusValue] = []) throws(ClientFailure) -> [DBusValue] {
        try call(member, interface: TickerAPI.controlInterface, path: managerPath(), arguments: arguments)
    }

    /// All properties of `interface` at `path`.
    func properties(of interface: String, at path: ObjectPath) throws(ClientFailure) -> [String: DBusValue] {
        let reply = try call("GetAll", interface: TickerAPI.propertiesInterface, path: path, arguments: [.string(interface)])
        guard let first = reply.first, let dictionary = first.vardictValue else {
            throw .unexpectedReply("GetAll(\(interface)) answered \(reply.map(\.type.signature))")
        }
        return dictionary
    }

    /// The manager object's path.
    func managerPath() throws(ClientFailure) -> ObjectPath {
        do {
            return try TickerAPI.managerPath
        } catch {
            throw .unexpectedReply("invalid manager path")
        }
    }

    /// The path of channel `name` (a usage error for an invalid name).
    func channelPath(_ name: String) throws(ClientFailure) -> ObjectPath {
        do {
            return try TickerAPI.channelPath(name)
        } catch let error as UsageError {
            throw .usage(error)
        } catch {
            throw .usage(UsageError("invalid channel name '\(name)'"))
        }
    }
}
