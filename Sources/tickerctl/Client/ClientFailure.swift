import DBus

/// Why a command failed, with the line(s) a person reads on stderr and the exit status.
enum ClientFailure: Error, CustomStringConvertible {
    /// The bus could not be reached at all.
    case cannotConnect(BusSelection, DBusError)
    /// The daemon (or the bus on its behalf) answered with an error.
    case daemon(DBusError, BusSelection)
    /// The channel asked about does not exist (the daemon has no object for it).
    case noSuchChannel(String)
    /// The daemon answered something this client does not understand.
    case unexpectedReply(String)
    /// What the user typed is wrong.
    case usage(UsageError)

    /// D-Bus errors that mean nobody owns the daemon's name.
    static let missingDaemonErrors: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
    ]

    /// The lines printed on stderr, each prefixed with `tickerctl: `.
    var lines: [String] {
        switch self {
        case let .cannotConnect(selection, error):
            if selection == .session, let absence = SessionBusAbsence.current() {
                return ["cannot connect to the session bus: \(absence.reason)", absence.advice]
            }
            return ["cannot connect to \(selection): \(error.name): \(error.message)"]
        case let .daemon(error, selection):
            var lines = ["\(error.name): \(error.message)"]
            if Self.missingDaemonErrors.contains(error.name) {
                lines.append("tickerd is not running on \(selection); \(selection.startAdvice)")
            }
            return lines
        case .noSuchChannel(let name):
            return ["there is no channel '\(name)' (post or configure creates one)"]
        case .unexpectedReply(let what):
            return ["unexpected reply from tickerd: \(what)"]
        case .usage(let error):
            return [error.description]
        }
    }

    /// Whether the system bus may hold the daemon the person meant: the session bus (the default)
    /// could not be reached or has no tickerd. Then ``SystemBusTickerd`` says whether to add
    /// `--bus system`.
    var pointsToTheSystemBus: Bool {
        switch self {
        case .cannotConnect(.session, _): return true
        case .daemon(let error, .session): return Self.missingDaemonErrors.contains(error.name)
        default: return false
        }
    }

    /// The exit status: 64 (EX_USAGE) for usage errors, 69 (EX_UNAVAILABLE) when the daemon or
    /// the bus is missing, 1 for an error the daemon returned.
    var exitStatus: Int32 {
        switch self {
        case .usage: return 64
        case .cannotConnect: return 69
        case .daemon(let error, _): return Self.missingDaemonErrors.contains(error.name) ? 69 : 1
        case .noSuchChannel, .unexpectedReply: return 1
        }
    }

    var description: String { lines.joined(separator: "\n") }
}
