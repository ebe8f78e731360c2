/// The Swift layer over libdbus-1. Filled in by the foundation work.
public enum DBusLibrary {
    /// The D-Bus specification version this layer speaks.
    public static let protocolVersion = 1
}
