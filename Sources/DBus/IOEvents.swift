import CDBus

/// Readiness conditions of a file descriptor watched by an ``EventLoop``.
public struct IOEvents: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    public let rawValue: UInt32

    /// Wraps a raw bit set.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Data can be read (`EPOLLIN`).
    public static let readable = IOEvents(rawValue: 1 << 0)
    /// Data can be written (`EPOLLOUT`).
    public static let writable = IOEvents(rawValue: 1 << 1)
    /// An error condition (always reported, never needs asking for).
    public static let error = IOEvents(rawValue: 1 << 2)
    /// The peer hung up (always reported, never needs asking for).
    public static let hangup = IOEvents(rawValue: 1 << 3)

    /// The epoll mask asking for these events.
    var epollMask: UInt32 {
        var mask: UInt32 = 0
        if contains(.readable) { mask |= CDBUS_EPOLLIN }
        if contains(.writable) { mask |= CDBUS_EPOLLOUT }
        return mask
    }

    /// The events an epoll mask reports.
    init(epollMask mask: UInt32) {
        var events: IOEvents = []
        if mask & CDBUS_EPOLLIN != 0 { events.insert(.readable) }
        if mask & CDBUS_EPOLLOUT != 0 { events.insert(.writable) }
        if mask & CDBUS_EPOLLERR != 0 { events.insert(.error) }
        if mask & CDBUS_EPOLLHUP != 0 { events.insert(.hangup) }
        self = events
    }
}
