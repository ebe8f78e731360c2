import FoundationEssentials
import Glibc

/// Why there is no session bus to connect to, said so that a person can act on it. libdbus looks
/// for the session bus in `DBUS_SESSION_BUS_ADDRESS`, then at `$XDG_RUNTIME_DIR/bus`, then tries
/// X11 autolaunch, whose error ("Unable to autolaunch a dbus-daemon without a $DISPLAY for X11")
/// names neither place: outside a desktop login (cron, `su`, a service) that is all one read.
struct SessionBusAbsence: Equatable {
    /// The reason, for the line that says tickerctl cannot connect.
    let reason: String
    /// What to do about it.
    let advice: String

    /// The absence `environment` shows, or nil when it names a session bus (then libdbus's own
    /// error says what went wrong with that bus). `userBus` is where this user's session bus
    /// listens when one runs (`/run/user/UID/bus`), offered when it exists.
    static func of(environment: [String: String], userBus: String, exists: (String) -> Bool) -> SessionBusAbsence? {
        guard environment["DBUS_SESSION_BUS_ADDRESS"] == nil else { return nil }
        let reason: String
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            guard !exists(runtime + "/bus") else { return nil }
            reason = "DBUS_SESSION_BUS_ADDRESS is not set and there is no \(runtime)/bus"
        } else {
            reason = "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set"
        }
        let advice = exists(userBus)
            ? "your session bus is at \(userBus): add `--bus unix:path=\(userBus)`"
            : "run it in your desktop session, or give the bus with `--bus ADDRESS`"
        return SessionBusAbsence(reason: reason, advice: advice)
    }

    /// The absence this process's environment shows, or nil.
    static func current() -> SessionBusAbsence? {
        of(environment: ProcessInfo.processInfo.environment, userBus: "/run/user/\(getuid())/bus",
           exists: { FileManager.default.fileExists(atPath: $0) })
    }
}
