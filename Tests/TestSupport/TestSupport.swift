/// Helpers shared by the test targets: a private dbus-daemon, child processes, temporary folders.
public enum TestSupportInfo {
    /// Placeholder so the target builds before its helpers land.
    public static let ready = true
}
