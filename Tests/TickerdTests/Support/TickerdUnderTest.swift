/// The program that the bus policy and activation tests run as "tickerd".
///
/// Until the daemon serves its bus surface, it is the stand-in `Tests/Fixtures/tickerd-standin`
/// (Python + Gio, exporting `dbus-policy/interfaces/*.xml` with zero answers). Both take the same
/// command line (`--bus session|system|ADDRESS`, `--config`, `--state-dir`), so testing the real
/// daemon is this one change:
///
///     static let executable = Repository.builtProduct("tickerd")
enum TickerdUnderTest {
    /// The stand-in bus owner.
    static let standIn = Repository.path("Tests/Fixtures/tickerd-standin")

    /// The executable started as tickerd (see the type's comment to switch to the real daemon).
    static let executable = Repository.builtProduct("tickerd")

    /// The command line for a daemon on `bus` keeping its files in `directory`
    /// (`tickerd.toml`, an empty config, and `state/`).
    static func arguments(bus: String, directory: String) -> [String] {
        ["--bus", bus, "--config", directory + "/tickerd.toml", "--state-dir", directory + "/state"]
    }
}
