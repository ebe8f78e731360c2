import Foundation

/// A client on a thread of its own calling `body` back to back until stopped; notes the slowest
/// call.
final class BackgroundCaller: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var calls = 0
    private var longest = 0.0
    private var failure: (any Error)?
    private let finished = DispatchSemaphore(value: 0)

    /// Starts calling `body` (with the call's index) on a new connection to `address`.
    init(address: String, _ body: @escaping @Sendable (BlockingClient, Int) throws -> Void) {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            defer { finished.signal() }
            do {
                let client = try BlockingClient(address: address)
                defer { client.close() }
                ready.signal()
                var index = 0
                while !isStopping {
                    let took = try client.timed { try body(client, index) }
                    index += 1
                    lock.lock()
                    calls = index
                    longest = max(longest, took)
                    lock.unlock()
                }
            } catch {
                lock.lock()
                failure = error
                lock.unlock()
                ready.signal()
            }
        }
        thread.start()
        ready.wait()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// The longest call so far, in seconds.
    var slowest: Double {
        lock.lock()
        defer { lock.unlock() }
        return longest
    }

    /// Stops after the current call; how many calls it made (throws the first failure).
    func stop() throws -> Int {
        lock.lock()
        stopping = true
        lock.unlock()
        finished.wait()
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return calls
    }
}
