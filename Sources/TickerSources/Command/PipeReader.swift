import DBus
import Glibc

/// Reads a non-blocking pipe on the loop, handing complete lines (or everything, at the end) to
/// its owner; keeps at most `limit` bytes of a line it has not seen the end of.
final class PipeReader {
    private let fd: Int32
    private var watch: FDWatch?
    private var pending: [UInt8] = []
    private let limit: Int
    private let onLine: ((String) -> Void)?
    /// Everything read that was not handed out as a line (capped at `limit` bytes).
    private(set) var collected: [UInt8] = []
    /// Whether the writer closed its end.
    private(set) var reachedEnd = false
    private var isClosed = false

    /// Watches `fd` on `loop`; with `onLine`, each complete line goes there, else all is collected.
    init(fd: Int32, loop: EventLoop, limit: Int = 65536, onLine: ((String) -> Void)? = nil) throws {
        self.fd = fd
        self.limit = limit
        self.onLine = onLine
        watch = try loop.watch(fd: fd, events: .readable) { [weak self] _ in self?.drain() }
    }

    /// Reads what is there now (also called once the child has exited).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !reachedEnd {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                take(buffer[0..<count])
            } else if count == 0 {
                reachedEnd = true
                watch?.cancel()
                watch = nil
            } else {
                if errno == EINTR { continue }
                if errno != EAGAIN { reachedEnd = true; watch?.cancel(); watch = nil }
                return
            }
        }
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        guard let onLine else {
            collected += bytes.prefix(max(0, limit - collected.count))
            return
        }
        pending += bytes
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            onLine(line)
        }
        if pending.count > limit { pending.removeFirst(pending.count - limit) }
    }

    /// Stops watching and closes the pipe.
    func close() {
        watch?.cancel()
        watch = nil
        if !isClosed { _ = Glibc.close(fd) }
        isClosed = true
        reachedEnd = true
    }

    deinit {
        watch?.cancel()
        if !isClosed { _ = Glibc.close(fd) }
    }
}
