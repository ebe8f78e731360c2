import DBus
import Foundation
import Glibc
import TOMLConfig

/// Serves `org.freedesktop.Notifications` (Desktop Notifications spec 1.2) so that every
/// program's notifications appear in the ticker, one message each.
///
/// Guarantees:
/// - when another server owns the name, it says so once and does nothing else (no object, no
///   messages);
/// - `expire_timeout` becomes the message's end (−1: the configured default; 0: until closed),
///   urgency critical makes it urgent, `replaces_id` updates that notification in place (and
///   names the new one when no notification has that id), and `Notify` returns it; a stack tag
///   hint (`x-dunst-stack-tag`, `x-canonical-private-synchronous`) replaces the app's notification
///   with that tag;
/// - summaries and bodies are shown as plain text (markup stripped, whitespace made single);
/// - a notification ends with `NotificationClosed`: 1 expired, 2 dismissed (activated), 3 closed
///   by `CloseNotification`; activating a message invokes the notification's `default` action;
/// - `NotificationClosed` and `ActionInvoked` are broadcast (no destination), as gnome-shell and
///   mako send them: every client with a match rule on them hears them, so a sender that
///   restarted (a new unique name) still hears about the notifications of its earlier run;
/// - the notifications held are saved in the context's state store at each change, and a
///   restarted service that owns the name again takes them up under the same ids: one that
///   stays until closed stays until it is closed, the others until their timeout (those that
///   expired meanwhile are closed, reason 1). A service that finds another server owning the
///   name drops them (that server serves the desktop now).
public final class NotificationServer: ItemSource {
    /// Microseconds a notification with `expire_timeout` −1 shows.
    public let defaultTTL: Int64
    /// The most notifications held at once (the oldest goes first).
    public let limit: Int

    /// The hints that name a stack tag, as dunst and notify-osd read them (volume and brightness
    /// scripts send one instead of a `replaces_id`).
    static let stackTagHints = ["x-dunst-stack-tag", "x-canonical-private-synchronous", "synchronous", "private-synchronous"]

    private var context: SourceContext?
    private var notifications: [UInt32: HeldNotification] = [:]
    private var order: [UInt32] = []
    private var nextID: UInt32 = 1
    private var expiry: LoopTimer?
    private var owning = false
    private var saved: SavedState<SavedNotifications>?
    private let path = "/org/freedesktop/Notifications"

    /// The bus name and interface served.
    public static let busName = "org.freedesktop.Notifications"

    /// A server showing notifications of timeout −1 for `defaultTTL` microseconds.
    public init(defaultTTL: Int64, limit: Int = 64) {
        self.defaultTTL = defaultTTL
        self.limit = limit
    }

    /// The `notifications` kind: keys `default_ttl`; fields app, summary, body, urgency.
    public static let kind = SourceKind(
        name: "notifications", fields: ["app", "summary", "body", "urgency"], keys: ["default_ttl"]
    ) { table throws(ConfigError) in
        let ttl = try SourcesConfigLoader.timeSpan(table, "default_ttl") ?? 10_000_000
        guard ttl >= 1_000_000 else { throw table.error("default_ttl", "must be at least 1s") }
        return NotificationServer(defaultTTL: ttl)
    }

    /// Exports the server and asks for its name; when another server has it, stays idle.
    public func start(_ context: SourceContext) throws {
        self.context = context
        let connection = context.connection
        expiry = context.loop.makeTimer { [weak self] in self?.expire() }
        try connection.export([interface()], at: try ObjectPath(path))
        do {
            try connection.requestName(Self.busName)
            owning = true
            context.logger.info("serving \(Self.busName)")
            restoreSaved(context)
        } catch let error as NameRequestError {
            connection.unexport(try ObjectPath(path))
            if case .taken(_, let owner) = error {
                context.logger.notice(
                    "another notification server (\(owner ?? "unknown")) owns \(Self.busName); this source stays idle")
            } else {
                context.logger.error("cannot own \(Self.busName): \(error); this source stays idle")
            }
        }
        if owning { publish() } else { context.publish([]) }
    }

    /// Takes up the notifications an earlier run saved; those whose timeout passed meanwhile are
    /// closed (reason 1).
    private func restoreSaved(_ context: SourceContext) {
        let file = SavedState<SavedNotifications>(
            SourceStateStore.fileName(kind: Self.kind.name, source: context.name), in: context.state, holding: "the notifications", logger: context.logger)
        saved = file
        guard let last = file.load() else { return }
        for entry in last.entries.suffix(limit) where notifications[entry.id] == nil {
            notifications[entry.id] = entry.notification
            order.append(entry.id)
        }
        nextID = max(1, last.nextID)
        let now = TimerClock.realtime.nowNanoseconds / 1000
        for id in order where (notifications[id]?.expires ?? .max) <= now { close(id, reason: 1, publishing: false) }
        if !order.isEmpty { context.logger.info("went on with \(order.count) notifications of the last run") }
    }

    /// Saves the notifications held (while serving the name).
    private func save() {
        guard owning else { return }
        saved?.save(SavedNotifications(
            entries: order.compactMap { id in notifications[id].map { SavedNotifications.Entry(id: id, notification: $0) } },
            nextID: nextID))
    }

    /// Gives the name back.
    public func stop() {
        guard owning, let connection = context?.connection else { return }
        _ = try? connection.releaseName(Self.busName)
        owning = false
    }

    /// A click on notification `key`: its `default` action is invoked, and it closes (reason 2).
    public func activated(key: String) {
        guard let id = UInt32(key), let notification = notifications[id] else { return }
        if notification.actions.contains("default") {
            emit("ActionInvoked", [.uint32(id), .string("default")])
        }
        close(id, reason: 2)
    }

    // MARK: The interface

    private func interface() -> Interface {
        Interface(
            Self.busName,
            methods: [
                Method("GetCapabilities", out: [Argument("capabilities", .array(.string))]) { _ in
                    // body-markup: bodies are read as markup (tags removed, entities decoded),
                    // so clients escape a literal '<' or '&' instead of sending it bare.
                    [.stringArray(["actions", "body", "body-markup"])]
                },
                Method(
                    "Notify",
                    in: [
                        Argument("app_name", .string), Argument("replaces_id", .uint32), Argument("app_icon", .string),
                        Argument("summary", .string), Argument("body", .string), Argument("actions", .array(.string)),
                        Argument("hints", .dictionary(key: .string, value: .variant)), Argument("expire_timeout", .int32),
                    ],
                    out: [Argument("id", .uint32)]
                ) { [weak self] call in
                    guard let self else { throw DBusError.failed("the server is stopping") }
                    return [.uint32(try self.notify(call))]
                },
                Method("CloseNotification", in: [Argument("id", .uint32)]) { [weak self] call in
                    let id = try call.argument(0) { $0.uint32Value }
                    self?.close(id, reason: 3)
                    return []
                },
                Method(
                    "GetServerInformation",
                    out: [Argument("name", .string), Argument("vendor", .string), Argument("version", .string),
                          Argument("spec_version", .string)]
                ) { _ in
                    [.string("tickerd-sources"), .string("tickerd"), .string("1"), .string("1.2")]
                },
            ],
            signals: [
                SignalDescription("NotificationClosed", arguments: [Argument("id", .uint32), Argument("reason", .uint32)]),
                SignalDescription("ActionInvoked", arguments: [Argument("id", .uint32), Argument("action_key", .string)]),
            ])
    }

    private func notify(_ call: MethodCall) throws -> UInt32 {
        let app = try call.argument(0) { $0.stringValue }
        let replaces = try call.argument(1) { $0.uint32Value }
        let summary = try call.argument(3) { $0.stringValue }
        let body = try call.argument(4) { $0.stringValue }
        let actions = try call.argument(5) { $0.stringArrayValue }
        let hints = try call.argument(6) { $0.vardictValue }
        let timeout = try call.argument(7) { $0.int32Value }
        let urgencyHint = hints["urgency"]?.unwrappingVariant
        let urgency = urgencyHint?.byteValue ?? 1
        if let urgencyHint, urgencyHint.byteValue == nil {
            context?.logger.warning(
                "notification from '\(app)': hint 'urgency' is \(urgencyHint.type.signature), not a byte (y); shown as normal")
        }
        if actions.count % 2 == 1 {
            context?.logger.warning(
                "notification from '\(app)': actions come in pairs (key, label); the odd last one is ignored")
        }
        let now = TimerClock.realtime.nowNanoseconds / 1000
        let expires: Int64? = switch timeout {
        case ..<0: now + defaultTTL
        case 0: nil
        default: now + Int64(timeout) * 1000
        }
        let tag = Self.stackTagHints.lazy.compactMap { hints[$0]?.unwrappingVariant.stringValue }.first
        let notification = HeldNotification(
            app: MarkupStripper.plainText(app), summary: MarkupStripper.plainText(summary),
            body: MarkupStripper.plainText(body), urgent: urgency >= 2,
            actions: stride(from: 0, to: actions.count - actions.count % 2, by: 2).map { actions[$0] },
            expires: expires, tag: tag)
        let id: UInt32
        if replaces == 0, let tag,
           let stacked = order.first(where: { notifications[$0]?.tag == tag && notifications[$0]?.app == notification.app }) {
            id = stacked
        } else if replaces != 0 {
            // The spec returns replaces_id itself; one that is not (or no longer) shown is taken
            // as the new notification's id (as dunst does), so a script that updates a volume
            // notification with a fixed `notify-send -r 4242` shows one message, not one a press.
            id = replaces
            if notifications[id] == nil { order.append(id) }
        } else {
            while notifications[nextID] != nil { nextID = nextID == UInt32.max ? 1 : nextID + 1 }
            id = nextID
            nextID = nextID == UInt32.max ? 1 : nextID + 1
            order.append(id)
        }
        notifications[id] = notification
        while order.count > limit, let oldest = order.first { close(oldest, reason: 1, publishing: false) }
        publish()
        return id
    }

    private func close(_ id: UInt32, reason: UInt32, publishing: Bool = true) {
        guard notifications.removeValue(forKey: id) != nil else { return }
        order.removeAll { $0 == id }
        emit("NotificationClosed", [.uint32(id), .uint32(reason)])
        if publishing { publish() }
    }

    private func expire() {
        let now = TimerClock.realtime.nowNanoseconds / 1000
        for id in order where (notifications[id]?.expires ?? .max) <= now { close(id, reason: 1, publishing: false) }
        publish()
    }

    private func publish() {
        guard let context else { return }
        let items = order.compactMap { id -> SourceItem? in
            guard let notification = notifications[id] else { return nil }
            return SourceItem(
                key: "\(id)",
                fields: [
                    "app": notification.app, "summary": notification.summary, "body": notification.body,
                    "urgency": notification.urgent ? "critical" : "normal",
                ],
                urgent: notification.urgent, expires: notification.expires)
        }
        if let next = notifications.values.compactMap(\.expires).min() {
            expiry?.schedule(at: .realtime(microsecondsSinceEpoch: next))
        } else {
            expiry?.cancel()
        }
        save()
        context.publish(items)
    }

    /// Broadcasts signal `member` of the interface (to every client whose match rule takes it).
    private func emit(_ member: String, _ arguments: [DBusValue]) {
        guard owning, let connection = context?.connection, let path = try? ObjectPath(path) else { return }
        do {
            try connection.emitSignal(
                path: path, interface: Self.busName, member: member, arguments: arguments, destination: nil)
        } catch {
            context?.logger.warning("cannot emit \(member): \(error)")
        }
    }
}
