import ArgumentParser
import DBus

/// Shell completions that come from the running daemon: its channel names and its message ids,
/// for the completion scripts (`tickerctl --generate-completion-script`). They are asked on the bus
/// the command line names (`--bus`, else the session bus) and only of a daemon that is running:
/// completing never starts one through bus activation, and a daemon that does not answer within
/// ``timeout`` completes nothing.
enum BusCompletion {
    /// How long a completion may wait for the daemon.
    static let timeout: Duration = .seconds(1)

    /// Channel names (for `--channel` and a channel argument) that start with the word being
    /// completed.
    static let channels = CompletionKind.custom { words, _, prefix in
        answers(on: words, prefix: prefix) { client in
            let manager = try client.properties(of: TickerAPI.managerInterface, at: client.managerPath())
            return (manager["Channels"]?.objectPathArrayValue ?? []).compactMap { $0.elements.last.map(String.init) }
        }
    }

    /// Message ids (for `update` and `remove`) that start with the word being completed.
    static let messageIDs = CompletionKind.custom { words, _, prefix in
        answers(on: words, prefix: prefix) { client in
            try MessageListing(reply: client.control("List", [.string("")])).messages.map(\.id)
        }
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

    /// What `ask` reads from the daemon on the bus `words` name that starts with `prefix`, sorted;
    /// nothing when the daemon is not running or any step fails.
    private static func answers(on words: [String], prefix: String, _ ask: (DaemonClient) throws -> [String]) -> [String] {
        guard let client = try? DaemonClient(bus(in: words), timeout: timeout),
              (try? client.connection.nameOwner(TickerAPI.busName)) != nil else { return [] }
        return ((try? ask(client)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
