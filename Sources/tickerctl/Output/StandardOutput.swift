import Glibc

/// Unbuffered writes to a file descriptor (stdout by default): each line reaches the panel at once.
struct StandardOutput {
    /// The descriptor written to.
    let fd: Int32

    /// Writes to stdout.
    init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
    }

    /// Whether the descriptor is a terminal.
    var isTerminal: Bool { isatty(fd) == 1 }

    /// Writes all of `text`; false when the reader has gone (EPIPE) or the write failed.
    @discardableResult
    func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += count
        }
        return true
    }
}
