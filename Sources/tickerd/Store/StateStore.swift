import Foundation

/// Reads and writes the state file (`state.json` in the state directory) atomically; a file that
/// cannot be read is moved aside (`state.json.corrupt-<time>`, `.1`, `.2` … when that name is
/// taken), never silently dropped.
struct StateStore {
    /// The state directory.
    let directory: String

    /// The state file's path.
    var path: String { directory + "/state.json" }

    /// What `load()` found.
    enum LoadResult {
        /// No state yet (first start).
        case empty
        /// The stored state.
        case loaded(StateSnapshot)
        /// The file was unreadable; it now lives at `movedTo`, and `reason` says what was wrong.
        case corrupt(reason: String, movedTo: String)
    }

    /// Creates the directory when missing, and removes temporary files a killed daemon left
    /// half-written (`state.json.tmp.<pid>`: never read, and never renamed over the state).
    func prepare() throws(FileSystemError) {
        try AtomicFile.makeFolders(directory)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in leftovers where name.hasPrefix("state.json.tmp.") {
            unlink(directory + "/" + name)
        }
    }

    /// Reads the state, moving a corrupt file aside.
    func load(now: Int64) throws(FileSystemError) -> LoadResult {
        guard let bytes = try AtomicFile.read(path) else { return .empty }
        do {
            let snapshot = try JSONDecoder().decode(StateSnapshot.self, from: Data(bytes))
            guard snapshot.version == StateSnapshot.currentVersion else {
                return try moveAside(reason: "state format version \(snapshot.version) is not \(StateSnapshot.currentVersion)", now: now)
            }
            return .loaded(snapshot)
        } catch {
            return try moveAside(reason: "\(error)", now: now)
        }
    }

    /// Writes `snapshot` atomically and durably.
    func save(_ snapshot: StateSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(snapshot)
        try AtomicFile.write([UInt8](data), to: path)
    }

    private func moveAside(reason: String, now: Int64) throws(FileSystemError) -> LoadResult {
        // Never over an earlier corrupt file (two bad starts within one second): each is kept.
        var target = "\(path).corrupt-\(now / 1_000_000)"
        var attempt = 1
        while access(target, F_OK) == 0 {
            target = "\(path).corrupt-\(now / 1_000_000).\(attempt)"
            attempt += 1
        }
        guard rename(path, target) == 0 else {
            throw FileSystemError(operation: "rename", path: path, code: errno)
        }
        return .corrupt(reason: reason, movedTo: target)
    }
}
