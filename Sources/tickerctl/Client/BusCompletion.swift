import ArgumentParser
import DBus

/// Shell completions that come from the running daemon: its channel names and its message ids,
/// for the completion scripts (`tickerctl --generate-completion-script`). They are asked on the bus
/// the command line names (`--bus`, else the session bus) and only of a daemon that is running:
/// completing never starts one through bus activation, and a bus or daemon that does not answer
/// within ``timeout`` completes nothing.
enum BusCompletion {
    /// How long a completion may wait for the bus.
    static let timeout: Duration = .seconds(1)

    /// Channel names (for `--channel` and a channel argument) that start with the word being
    /// completed.
    static let channels = CompletionKind.custom { words, _, prefix in
        names(in: words) { connection in
            let manager = try TickerAPI.managerPath
            let reply = try connection.callBlocking(
                destination: TickerAPI.busName, path: manager, interface: TickerAPI.propertiesInterface,
                member: "Get", arguments: [.string(TickerAPI.managerInterface), .string("Channels")], timeout: timeout)
            guard case .array(_, let paths)? = reply.first?.unwrappingVariant else { return [] }
            return paths.compactMap { path in
                guard case .objectPath(let path) = path else { return nil }
                return path.elements.last.map(String.init)
            }
        }.filter { $0.hasPrefix(prefix) }
    }

    /// Message ids (for `update` and `remove`) that start with the word being completed.
    static let messageIDs = CompletionKind.custom { words, _, prefix in
        names(in: words) { connection in
            let reply = try connection.callBlocking(
                destination: TickerAPI.busName, path: try TickerAPI.managerPath, interface: TickerAPI.controlInterface,
                member: "List", arguments: [.string("")], timeout: timeout)
            return try MessageListing(reply: reply).messages.map(\.id)
        }.filter { $0.hasPrefix(prefix) }
    }

    /// The bus named by `--bus X` or `--bus=X` among `words` (the last one given), else the session
    /// bus.
    static func bus(in words: [String]) -> BusSelection {
        var selection = BusSelection.session
        for (index, word) in words.enumerated() {
            let value: String? = word.hasPrefix("--bus=")
                ? String(word.dropFirst("--bus=".count))
                : (word == "--bus" && index + 1 < words.count ? words[index + 1] : nil)
            if let value, let named = BusSelection(argument: value) { selection = named }
        }
        return selection
    }

    /// What `ask` reads from the daemon on the bus `words` name, sorted; nothing when the daemon
    /// is not running or any step fails.
    private static func names(in words: [String], _ ask: (Connection) throws -> [String]) -> [String] {
        guard let loop = try? EventLoop(), let connection = try? Connection(bus: bus(in: words).bus, loop: loop) else {
            return []
        }
        defer { connection.close() }
        guard (try? connection.nameOwner(TickerAPI.busName)) != nil else { return [] }
        return ((try? ask(connection)) ?? []).sorted()
    }
}
