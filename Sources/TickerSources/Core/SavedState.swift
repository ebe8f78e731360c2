import Foundation
import Logging

/// One source's file in the ``SourceStateStore``, holding a `Value` as JSON.
///
/// Guarantees: nothing here stops a source. A file that is missing reads as nil; one that cannot
/// be read is logged and reads as nil; a save that fails is logged once until its reason
/// changes, and the next save tries again.
final class SavedState<Value: Codable> {
    private let store: SourceStateStore?
    private let file: String
    private let holding: String
    private let logger: Logger
    private var problem: String?

    /// The file `file` of `store` (nil: nothing is kept), which holds `holding` (for the log).
    init(_ file: String, in store: SourceStateStore?, holding: String, logger: Logger) {
        self.store = store
        self.file = file
        self.holding = holding
        self.logger = logger
    }

    /// What an earlier run saved, or nil when it saved nothing readable.
    func load() -> Value? {
        guard let store, let data = store.load(file) else { return nil }
        guard let value = try? JSONDecoder().decode(Value.self, from: data) else {
            logger.warning("ignoring the unreadable saved state \(store.path(file))")
            return nil
        }
        return value
    }

    /// Replaces the file's contents with `value`.
    func save(_ value: Value) {
        guard let store else { return }
        do {
            try store.save(file, try JSONEncoder().encode(value))
            problem = nil
        } catch {
            let reason = "cannot save \(holding) for a restart in \(store.path(file)): \(error.localizedDescription)"
            if reason != problem { logger.warning("\(reason)") }
            problem = reason
        }
    }
}
