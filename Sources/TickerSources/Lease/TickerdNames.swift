import DBus

/// The parts of tickerd's public D-Bus API (docs/dbus-api.md) the sources service uses.
public enum TickerdNames {
    /// tickerd's well-known bus name.
    public static let busName = "io.github.tickerd.Ticker1"
    /// The manager object's path.
    public static let managerPath = "/io/github/tickerd/Ticker1"
    /// The write interface (`Post`, `Update`, `Remove`, `List`).
    public static let controlInterface = "io.github.tickerd.Ticker1.Control"
    /// The read-only manager interface (signal `Activated`).
    public static let managerInterface = "io.github.tickerd.Ticker1.Manager"
    /// The prefix of tickerd's own error names (a verdict on the request, not a transport fault).
    public static let errorPrefix = "io.github.tickerd.Ticker1.Error."
    /// The error tickerd answers for an id it does not hold.
    public static let noSuchMessage = "io.github.tickerd.Ticker1.Error.NoSuchMessage"
}
