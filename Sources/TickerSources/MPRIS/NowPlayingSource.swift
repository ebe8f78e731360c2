import DBus
import TOMLConfig

/// Now playing: the MPRIS player playerctld would choose, as one message.
///
/// The chosen player is the most recently active (it appeared, or its status or track changed)
/// of those playing; when none plays, the most recently active paused one, shown with the
/// `paused` template (no `paused` template: nothing). A stopped player shows nothing.
///
/// Guarantees: the message follows the player's `PropertiesChanged` and `NameOwnerChanged`
/// signals as they arrive (no polling), so a stop or a quit removes it at once; its id stays the
/// same across tracks and players (`src/<name>/current`), so a change is an `Update`.
public final class NowPlayingSource: ItemSource {
    private var context: SourceContext?
    /// Players by unique connection name.
    private var players: [String: PlayerState] = [:]
    private var clock: UInt64 = 0
    private var ownerWatcher: NameOwnerWatcher?
    private var changes: SignalSubscription?
    private var published: [SourceItem]?

    /// A now-playing source.
    public init() {}

    /// The `mpris` kind: fields title, artist, album, albumartist, url, player, status; form `paused`.
    public static let kind = SourceKind(
        name: "mpris", fields: PlayerState.fieldNames, formKeys: ["paused"], keys: []
    ) { _ throws(ConfigError) in NowPlayingSource() }

    /// Watches the bus for players and reads the ones already there.
    public func start(_ context: SourceContext) throws {
        self.context = context
        let connection = context.connection
        ownerWatcher = try NameOwnerWatcher(connection: connection, name: nil) { [weak self] change in
            guard change.name.hasPrefix(MPRISNames.prefix) else { return }
            if let old = change.oldOwner { self?.vanished(old) }
            if let new = change.newOwner { self?.appeared(change.name, owner: new) }
        }
        changes = try connection.addMatch(MatchRule(
            interface: MPRISNames.properties, member: "PropertiesChanged",
            path: try ObjectPath(MPRISNames.path), stringArguments: [0: MPRISNames.player]
        )) { [weak self] message in
            self?.changed(message)
        }
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             member: "ListNames", arguments: []) { [weak self] reply in
            guard let self else { return }
            let names = (try? reply.get())?.first?.stringArrayValue ?? []
            let mpris = names.filter { $0.hasPrefix(MPRISNames.prefix) }
            if mpris.isEmpty { self.publish() }
            for name in mpris.sorted() { self.lookUpOwner(name) }
        }
    }

    /// Stops watching the players.
    public func stop() {
        ownerWatcher?.cancel()
        changes?.cancel()
    }

    private func lookUpOwner(_ name: String) {
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             member: "GetNameOwner", arguments: [.string(name)]) { [weak self] reply in
            guard let owner = (try? reply.get())?.first?.stringValue else { self?.publish(); return }
            self?.appeared(name, owner: owner)
        }
    }

    private func appeared(_ name: String, owner: String) {
        clock += 1
        players[owner] = PlayerState(busName: name, activity: clock)
        call(destination: owner, path: MPRISNames.path, interface: MPRISNames.properties, member: "GetAll",
             arguments: [.string(MPRISNames.player)]) { [weak self] reply in
            guard let self, self.players[owner] != nil else { return }
            switch reply {
            case .success(let values):
                self.apply(values.first?.vardictValue ?? [:], to: owner)
            case .failure(let error):
                self.context?.logger.warning("cannot read the player's properties: \(error)", metadata: ["player": "\(name)"])
            }
            self.players[owner]?.known = true
            self.publish()
        }
    }

    private func vanished(_ owner: String) {
        guard players.removeValue(forKey: owner) != nil else { return }
        publish()
    }

    private func changed(_ message: Message) {
        guard let sender = message.sender, players[sender] != nil,
              let arguments = try? message.arguments(), arguments.count >= 2,
              let changed = arguments[1].vardictValue else { return }
        apply(changed, to: sender)
        publish()
    }

    /// Takes `PlaybackStatus` and `Metadata` from a property dictionary; a status or track change
    /// counts as activity.
    private func apply(_ properties: [String: DBusValue], to owner: String) {
        guard var player = players[owner] else { return }
        let before = (player.status, player.fields["title"], player.fields["url"])
        if let status = properties["PlaybackStatus"]?.unwrappingVariant.stringValue {
            if let parsed = PlayerState.Status(rawValue: status) {
                player.status = parsed
            } else {
                context?.logger.warning("unknown PlaybackStatus '\(status)'", metadata: ["player": "\(player.busName)"])
            }
        }
        if let metadata = properties["Metadata"]?.unwrappingVariant.vardictValue {
            var values: [String: DBusValueText] = [:]
            for (key, value) in metadata {
                let inner = value.unwrappingVariant
                if let text = inner.stringValue {
                    values[key] = .one(text)
                } else if let list = inner.stringArrayValue {
                    values[key] = .many(list)
                } else if let path = inner.objectPathValue {
                    values[key] = .one(path.description)
                }
            }
            player.take(metadata: values)
        } else {
            player.fields["status"] = player.status.rawValue
        }
        if (player.status, player.fields["title"], player.fields["url"]) != before {
            clock += 1
            player.activity = clock
        }
        players[owner] = player
    }

    /// Publishes the chosen player's item (or none), once every player has been read.
    private func publish() {
        guard let context, players.values.allSatisfy(\.known) else { return }
        let ranked = players.values.sorted { $0.activity > $1.activity }
        let chosen = ranked.first { $0.status == .playing } ?? ranked.first { $0.status == .paused }
        var items: [SourceItem] = []
        if let chosen {
            items = [SourceItem(
                key: "current", fields: chosen.fields, link: chosen.link,
                form: chosen.status == .paused ? "paused" : nil)]
        }
        guard items != published else { return }
        published = items
        context.publish(items)
    }

    private func call(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue],
        reply: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) {
        guard let connection = context?.connection else { return }
        do {
            let message = try Message.methodCall(
                destination: destination, path: try ObjectPath(path), interface: interface, member: member)
            try message.append(arguments)
            try connection.call(message, timeout: .seconds(5)) { result in
                reply(result.flatMap { message in
                    do { return .success(try message.arguments()) } catch { return .failure(DBusError(from: error)) }
                })
            }
        } catch {
            reply(.failure(DBusError(from: error)))
        }
    }
}
