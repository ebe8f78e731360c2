/// A file descriptor watched by an ``EventLoop`` (see ``EventLoop/watch(fd:events:handler:)``).
public final class FDWatch {
    /// The watched descriptor.
    public let fd: Int32
    /// The events asked for.
    public private(set) var events: IOEvents
    /// Whether the watch is still registered.
    public private(set) var isActive = true

    private weak var loop: EventLoop?
    private let tag: UInt64

    init(loop: EventLoop, fd: Int32, tag: UInt64, events: IOEvents) {
        self.loop = loop
        self.fd = fd
        self.tag = tag
        self.events = events
    }

    /// Asks for other events from now on.
    public func update(events newEvents: IOEvents) throws {
        guard isActive, newEvents != events else { return }
        try loop?.modifyHandler(tag: tag, fd: fd, events: newEvents)
        events = newEvents
    }

    /// Stops watching. Call it before closing the descriptor. Idempotent.
    public func cancel() {
        guard isActive else { return }
        isActive = false
        loop?.removeHandler(tag: tag, fd: fd)
    }
}
