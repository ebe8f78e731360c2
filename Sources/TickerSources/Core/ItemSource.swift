import DBus
import Logging

/// What a running source is given: its loop, a logger naming it, and where to publish.
public struct SourceContext {
    /// The source's name from the configuration (`name` of its `[[source]]` table).
    public let name: String
    /// The service's event loop; all calls into the source and to `publish` happen on it.
    public let loop: EventLoop
    /// A logger whose messages name the source.
    public let logger: Logger
    /// The service's child processes (spawning and reaping commands).
    public let children: ChildReaper
    /// The service's bus connection (players and notifications live on it, and so does tickerd).
    public let connection: Connection
    /// Replaces the source's current items with the given complete set, in the order they
    /// should stand on the tape (their new messages are posted in it). The first call also
    /// says the source is ready: messages of this source left by an earlier run that are not
    /// in it are removed then. Call it on the loop's thread.
    public let publish: ([SourceItem]) -> Void
    /// Where the source keeps what must outlive a restart of the service (nil: nothing is kept).
    public let state: SourceStateStore?

    /// A context for source `name` on `loop`.
    public init(
        name: String, loop: EventLoop, logger: Logger, children: ChildReaper, connection: Connection,
        state: SourceStateStore? = nil, publish: @escaping ([SourceItem]) -> Void
    ) {
        self.name = name
        self.loop = loop
        self.logger = logger
        self.children = children
        self.connection = connection
        self.state = state
        self.publish = publish
    }
}

/// A source of ticker items: it watches something (a player, a command, a calendar, a feed) and
/// publishes the complete set of its current items whenever that set changes.
///
/// A source knows nothing of tickerd, message ids, TTLs or templates: the ``LeaseManager`` turns
/// each published set into `Post`/`Update`/`Remove` calls and renews the messages' leases.
/// A source never throws away the service: it logs what went wrong (naming itself through the
/// context's logger) and publishes what it still has.
public protocol ItemSource: AnyObject {
    /// Starts watching; from now on the source calls `context.publish` on the loop whenever its
    /// items change (at least once, when it knows its first set, even if empty). An error here
    /// is logged and leaves the other sources running.
    func start(_ context: SourceContext) throws

    /// Stops watching and releases what the source holds (processes, names, timers).
    func stop()

    /// The message of item `key` was activated (clicked; tickerd's `Activated` signal). Sources
    /// whose items have an action (a notification's default action) take it here.
    func activated(key: String)
}

extension ItemSource {
    /// Activation does nothing by default (the link, if any, is opened by the clicking client).
    public func activated(key: String) {}
}
