import Glibc

/// The durable write as tickerd's journal makes it, timed on its own: whole 4 KiB blocks written
/// one after another into a file of zeros written (and made durable) beforehand, from an aligned
/// buffer, on an `O_DIRECT | O_DSYNC` descriptor (`O_DSYNC` alone where the file system has no
/// direct I/O). The file is removed when the probe goes.
final class BlockProbe {
    private let path: String
    private let fd: Int32
    private let fileSize: Int
    private let blockSize: Int
    private let buffer: UnsafeMutableRawPointer
    private var offset = 0

    /// Creates `path` with `fileSize` bytes of zeros (durable) to write `blockSize` blocks into.
    init(path: String, fileSize: Int, blockSize: Int) throws {
        self.path = path
        self.fileSize = fileSize
        self.blockSize = blockSize
        buffer = UnsafeMutableRawPointer.allocate(byteCount: fileSize, alignment: blockSize)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: fileSize)
        let zeros = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard zeros >= 0, write(zeros, buffer, fileSize) == fileSize, fsync(zeros) == 0 else {
            let code = errno
            if zeros >= 0 { close(zeros) }
            buffer.deallocate()
            throw BenchError("cannot write the zeros of \(path): errno \(code)")
        }
        close(zeros)
        // tickerd's JournalFile opens its file the same way (`__O_DIRECT` is glibc's O_DIRECT).
        var opened = open(path, O_WRONLY | O_CLOEXEC | O_DSYNC | __O_DIRECT)
        if opened < 0 && errno == EINVAL { opened = open(path, O_WRONLY | O_CLOEXEC | O_DSYNC) }
        guard opened >= 0 else {
            let code = errno
            buffer.deallocate()
            unlink(path)
            throw BenchError("cannot open \(path): errno \(code)")
        }
        fd = opened
        buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"), count: blockSize)
    }

    deinit {
        close(fd)
        unlink(path)
        buffer.deallocate()
    }

    /// Writes the next block (from the start again at the end) and returns once it is durable.
    func writeNextBlock() throws {
        if offset + blockSize > fileSize { offset = 0 }
        guard pwrite(fd, buffer, blockSize, off_t(offset)) == blockSize else {
            throw BenchError("probe block write failed: errno \(errno)")
        }
        offset += blockSize
    }
}
