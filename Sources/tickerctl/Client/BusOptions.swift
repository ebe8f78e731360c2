import ArgumentParser
import DBus

/// Which bus to talk to: `session` (a desktop user's daemon), `system` (a kiosk) or a D-Bus address.
enum BusSelection: Equatable, Sendable, ExpressibleByArgument, CustomStringConvertible {
    /// The session bus.
    case session
    /// The system bus.
    case system
    /// A bus address such as `unix:path=/run/user/1000/bus`.
    case address(String)

    /// Reads `session`, `system` or an address (anything with a `:`).
    init?(argument: String) {
        switch argument {
        case "session": self = .session
        case "system": self = .system
        default:
            guard argument.contains(":") else { return nil }
            self = .address(argument)
        }
    }

    /// The selection as the DBus layer's bus.
    var bus: Connection.Bus {
        switch self {
        case .session: return .session
        case .system: return .system
        case .address(let address): return .address(address)
        }
    }

    /// How the bus is named in messages.
    var description: String {
        switch self {
        case .session: return "the session bus"
        case .system: return "the system bus"
        case .address(let address): return "the bus at \(address)"
        }
    }

    /// How a person starts the daemon on this bus.
    var startAdvice: String {
        switch self {
        case .session: return "start it with `systemctl --user start tickerd` (or run `tickerd --bus session`)"
        case .system: return "start it with `systemctl start tickerd` (or run `tickerd --bus system` as root)"
        case .address(let address): return "start it with `tickerd --bus \(address)`"
        }
    }
}

/// The options every command that talks to the daemon shares.
struct BusOptions: ParsableArguments {
    /// The bus to use.
    @Option(name: .long, help: ArgumentHelp(
        "The bus: session, system or a D-Bus address (unix:path=…).", valueName: "session|system|ADDRESS"))
    var bus: BusSelection = .session
}
