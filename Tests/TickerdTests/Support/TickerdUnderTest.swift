/// The program that the bus policy and activation tests run as "tickerd": the daemon built beside
/// the tests. The stand-in `Tests/Fixtures/tickerd-standin` (Python + Gio, exporting
/// `dbus-policy/interfaces/*.xml` with zero answers) takes the same command line (`--bus
/// session|system|ADDRESS`, `--config`, `--state-dir`); the policy tests use it only where they
/// need an owner that reports the broadcast signals it receives.
enum TickerdUnderTest {
    /// The stand-in bus owner.
    static let standIn = Repository.path("Tests/Fixtures/tickerd-standin")

    /// The executable started as tickerd: the real daemon.
    static let executable = Repository.builtProduct("tickerd")

    /// The command line for a daemon on `bus` keeping its files in `directory`
    /// (`tickerd.toml`, an empty config, and `state/`).
    static func arguments(bus: String, directory: String) -> [String] {
        ["--bus", bus, "--config", directory + "/tickerd.toml", "--state-dir", directory + "/state"]
    }
}
