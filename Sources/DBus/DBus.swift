/// The Swift layer over libdbus-1: an epoll ``EventLoop`` (fds, timers, signals), a private bus
/// ``Connection`` driven by it, ``Message``s of ``DBusValue``s, declarative ``Interface``s
/// exported on object paths, signals and match rules. See docs/dbus-layer.md.
public enum DBusLibrary {
    /// The D-Bus specification version this layer speaks.
    public static let protocolVersion = 1
}
