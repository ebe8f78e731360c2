import DBus

/// Whether the system bus has a tickerd (a kiosk's), for the hint added when the session bus has
/// none: the hint is printed only when it is true.
enum SystemBusTickerd: Equatable {
    /// Its name has an owner: the daemon runs.
    case running
    /// Nobody owns the name, but the bus would start the daemon on the first call.
    case activatable
    /// The system bus has no tickerd, or cannot be reached.
    case absent

    /// How long the probe may wait for the bus's answers.
    static let timeout: Duration = .seconds(2)

    /// Asks the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, or the default socket) whether the daemon's
    /// name has an owner or can be activated; `.absent` when the bus cannot be reached or does not
    /// answer within ``timeout``.
    static func probe() -> SystemBusTickerd {
        guard let loop = try? EventLoop(), let connection = try? Connection(bus: .system, loop: loop) else {
            return .absent
        }
        defer { connection.close() }
        func ask(_ member: String, _ arguments: [DBusValue]) -> DBusValue? {
            guard let path = try? ObjectPath("/org/freedesktop/DBus") else { return nil }
            return (try? connection.callBlocking(
                destination: "org.freedesktop.DBus", path: path, interface: "org.freedesktop.DBus",
                member: member, arguments: arguments, timeout: timeout))?.first
        }
        if ask("NameHasOwner", [.string(TickerAPI.busName)]) == .bool(true) { return .running }
        guard case .array(_, let names)? = ask("ListActivatableNames", []),
              names.contains(.string(TickerAPI.busName)) else { return .absent }
        return .activatable
    }

    /// The line that tells a person to add `--bus system`, or none.
    var hint: [String] {
        switch self {
        case .running: return ["tickerd runs on the system bus: add `--bus system`"]
        case .activatable: return ["tickerd is installed for the system bus: add `--bus system`"]
        case .absent: return []
        }
    }
}
