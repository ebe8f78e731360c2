import FoundationEssentials
import Glibc

/// Keeps the state durable in the state directory: a snapshot (`state.json`, replaced atomically:
/// temporary file, fsync, rename, folder fsync) and a journal of the changes since it
/// (`state.journal`, one CRC-checked record per change, appended and `fdatasync`'d). A change is
/// durable once its record is, so storing a change costs one flush; the journal is folded into a
/// new snapshot (a compaction) when it has grown, at start and at exit. A snapshot that cannot be
/// read is moved aside (`state.json.corrupt-<time>`, `.1`, `.2` … when that name is taken, with its
/// journal), never silently dropped.
final class StateStore: StateStoring {
    /// The state directory.
    let directory: String
    /// When the journal holds more than this many bytes (and more than `journalFactor` times the
    /// snapshot), the next change is stored by a compaction instead.
    let journalLimit: Int

    /// The state file's path.
    var path: String { directory + "/state.json" }
    /// The journal's path.
    var journalPath: String { directory + "/state.journal" }

    /// What `load()` found.
    enum LoadResult {
        /// No state yet (first start).
        case empty
        /// The stored state (the snapshot with the journal replayed); `notes` says what of the
        /// journal was not used (an unfinished last record is normal after a crash).
        case loaded(StateSnapshot, notes: [String])
        /// The file was unreadable; it now lives at `movedTo`, and `reason` says what was wrong.
        case corrupt(reason: String, movedTo: String)
        /// A file of the state could not be read at all (e.g. a journal left by a run as another
        /// user): nothing was moved, and the store refuses every change (``refusal``).
        case unreadable(FileSystemError)
    }

    /// Why every change is refused: a file of the state could not be read at start, so writing
    /// over it could lose what it holds. Nil while the store works normally.
    private(set) var refusal: FileSystemError?

    /// The journal may grow to this multiple of the snapshot's size before a compaction.
    static let journalFactor = 4

    private let journal: JournalFile
    /// Whether the files hold the state as last stored, so a change can be appended; false until
    /// a compaction has written both (the next store compacts).
    private var isCurrent = false
    /// The sequence of the last journal record written (or held by the snapshot).
    private var sequence: UInt64 = 0
    /// The size of the last snapshot written.
    private var snapshotSize = 0

    /// A store in `directory`, compacting once the journal passes `journalLimit` bytes.
    init(directory: String, journalLimit: Int = 1 << 20) {
        self.directory = directory
        self.journalLimit = journalLimit
        self.journal = JournalFile(path: directory + "/state.journal")
    }

    /// Creates the directory when missing, and removes temporary files a killed daemon left
    /// half-written (`state.json.tmp.<pid>`: never read, and never renamed over the state).
    func prepare() throws(FileSystemError) {
        try AtomicFile.makeFolders(directory)
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        var leftovers: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("state.json.tmp.") { leftovers.append(name) }
        }
        for name in leftovers {
            unlink(directory + "/" + name)
        }
    }

    /// Reads the snapshot and replays the journal over it, moving a corrupt snapshot (and its
    /// journal) aside.
    func load(now: Int64) throws(FileSystemError) -> LoadResult {
        let journalBytes: [UInt8]?
        let stateBytes: [UInt8]?
        do {
            journalBytes = try AtomicFile.read(journalPath)
            stateBytes = try AtomicFile.read(path)
        } catch {
            refusal = error
            return .unreadable(error)
        }
        guard let bytes = stateBytes else {
            guard let journalBytes, !journalBytes.isEmpty else { return .empty }
            // A journal without its snapshot cannot be replayed: keep it for a person to look at.
            let target = try moveAside(journalPath, now: now)
            return .corrupt(reason: "a journal without a state file", movedTo: target)
        }
        let snapshot: StateSnapshot
        do {
            snapshot = try JSONDecoder().decode(StateSnapshot.self, from: Data(bytes))
        } catch {
            return try moveAsideWithJournal(reason: "\(error)", now: now)
        }
        guard snapshot.version == StateSnapshot.currentVersion else {
            return try moveAsideWithJournal(
                reason: "state format version \(snapshot.version) is not \(StateSnapshot.currentVersion)", now: now)
        }
        var state = StoredState(snapshot)
        let base = snapshot.journalSequence ?? 0
        var last = base
        var notes: [String] = []
        let (payloads, unread) = JournalFile.records(in: journalBytes ?? [])
        let decoder = JSONDecoder()
        for (index, payload) in payloads.enumerated() {
            guard let change = try? decoder.decode(StateChange.self, from: Data(payload)) else {
                notes.append("journal record \(index + 1) could not be decoded; it and the rest were not replayed")
                break
            }
            // Already in the snapshot (a compaction ended before the journal was emptied).
            if change.sequence <= base { continue }
            guard change.sequence == last + 1 else {
                notes.append("journal record \(index + 1) is out of sequence; it and the rest were not replayed")
                break
            }
            guard state.apply(change) else {
                notes.append("journal record \(index + 1) edits a channel the state does not hold as edited; it and the rest were not replayed")
                break
            }
            last = change.sequence
        }
        if unread > 0 {
            notes.append("the journal ended in \(unread) bytes of an unfinished record (a change never answered)")
        }
        sequence = last
        return .loaded(state.snapshot(journalSequence: last), notes: notes)
    }

    /// Stores `change` durably: as the next journal record, or as a compaction of `snapshot()`
    /// when the journal is not open or the record would take it past its limit (a reload that
    /// changed thousands of messages, or simply the journal's growth).
    func store(_ change: StateChange, snapshot: () -> StateSnapshot) throws {
        if let refusal { throw refusal }
        guard isCurrent, journal.isOpen else { return try compact(snapshot()) }
        var record = change
        record.sequence = sequence + 1
        let payload = try record.jsonBytes()
        guard !isPastLimit(journal.size + payload.count + 8) else { return try compact(snapshot()) }
        try journal.append(payload)
        sequence += 1
    }

    /// Whether a journal of `size` bytes is past its limit.
    private func isPastLimit(_ size: Int) -> Bool {
        size > max(journalLimit, Self.journalFactor * snapshotSize)
    }

    /// Writes `snapshot` as the new state file and empties the journal (at start, at exit and when
    /// the journal is full).
    func compact(_ snapshot: StateSnapshot) throws {
        if let refusal { throw refusal }
        var complete = snapshot
        complete.journalSequence = sequence
        let data = try complete.jsonBytes()
        isCurrent = false
        // Open (create) the journal first: the snapshot's folder sync then makes its entry durable too.
        try journal.open()
        try AtomicFile.write(data, to: path)
        snapshotSize = data.count
        isCurrent = true
        // The journal's records are all in the snapshot now, which is what counts: should emptying
        // the journal fail, its records are skipped on load (their sequence is not above the
        // snapshot's) and the next store compacts again instead of appending.
        do {
            try journal.truncate()
        } catch {
            journal.close()
        }
    }

    private func moveAsideWithJournal(reason: String, now: Int64) throws(FileSystemError) -> LoadResult {
        let target = try moveAside(path, now: now)
        if access(journalPath, F_OK) == 0 { _ = try moveAside(journalPath, now: now) }
        return .corrupt(reason: reason, movedTo: target)
    }

    private func moveAside(_ file: String, now: Int64) throws(FileSystemError) -> String {
        // Never over an earlier corrupt file (two bad starts within one second): each is kept.
        var target = "\(file).corrupt-\(now / 1_000_000)"
        var attempt = 1
        while access(target, F_OK) == 0 {
            target = "\(file).corrupt-\(now / 1_000_000).\(attempt)"
            attempt += 1
        }
        guard rename(file, target) == 0 else {
            throw FileSystemError(operation: "rename", path: file, code: errno)
        }
        return target
    }
}
