import Foundation

/// Reads the state file over and over on a thread of its own while the daemon writes it, and
/// keeps every read that was not a whole JSON document (a torn, half-written file).
final class StateFileReader: @unchecked Sendable {
    private let lock = NSLock()
    private var reads = 0
    private var torn: [String] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading `path`.
    init(path: String) {
        let thread = Thread { [self] in
            while !isStopping {
                // A missing file (before the first save) is not torn; a present one must parse.
                if let data = FileManager.default.contents(atPath: path) {
                    let whole = (try? JSONSerialization.jsonObject(with: data)) != nil
                    lock.lock()
                    reads += 1
                    if !whole { torn.append(String(decoding: data.suffix(80), as: UTF8.self)) }
                    lock.unlock()
                }
            }
            finished.signal()
        }
        thread.start()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Stops reading; returns how many reads there were and the tails of the torn ones.
    func stop() -> (reads: Int, torn: [String]) {
        lock.lock()
        stopping = true
        lock.unlock()
        finished.wait()
        lock.lock()
        defer { lock.unlock() }
        return (reads, torn)
    }
}
