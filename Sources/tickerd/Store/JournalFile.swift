import Glibc

/// A file of records, each durable before `append` returns: the file is opened `O_DSYNC`, so
/// each write returns once its data is on the device (one write and one flush, without a separate
/// `fdatasync` call) — the cheapest durable write there is (no temporary file, no rename, no
/// folder sync).
///
/// A record is its payload's length (4 bytes, little-endian, never 0), the payload's CRC-32
/// (4 bytes, little-endian) and the payload. A crash can cut only the last record short, and only
/// a record whose `append` never returned; reading stops at the first record that is not whole.
///
/// The file is grown ahead of its records in steps of ``growthStep`` bytes of zeros, written (not
/// merely reserved: a reserved or sparse block needs a metadata change when first written). A
/// record then overwrites blocks that already exist, so its flush writes data only, with no
/// change to the file's size or block map to commit through the file system's own journal: on
/// ext4 here, 1 KiB append + `fdatasync` p50 0.22–0.26 ms, overwrite + `fdatasync` 0.17–0.19 ms,
/// overwrite with `O_DSYNC` 0.14–0.15 ms (docs/benchmarks.md). The zeros read as the end of the
/// records (a length of 0). ``growAhead()`` keeps at least half a step of them ahead, so a record
/// normally overwrites in place (``overwritesInPlace(payloadCount:)``) and can fail only by a
/// device error; its owner announces such a change while it is written.
///
/// Writes are whole ``blockSize`` blocks from an aligned buffer, so the file is opened
/// `O_DIRECT` where the file system allows it: the record goes from the buffer to the device
/// without the page cache's writeback (a 2.5 kB record p50 ~185 µs against ~220 µs through the
/// page cache, docs/benchmarks.md). A block holding the end of earlier records is written again
/// with those same bytes (kept in memory as ``tail``), as the page cache would write its page.
final class JournalFile {
    /// The file's path.
    let path: String
    /// Bytes of whole records at the start of the file (where the next record goes).
    private(set) var size = 0
    /// Bytes in the file: the records, then zeros.
    private var allocated = 0
    private var fd: Int32 = -1
    /// Whether the file was opened `O_DIRECT`.
    private(set) var isDirect = false
    /// The bytes of the records in the block where the next record starts (from its start to
    /// ``size``), written again with it.
    private var tail: [UInt8] = []
    /// Whether the file was empty when opened or emptied since (records go only after others
    /// written here, never after bytes of unknown meaning).
    private var isEmptied = false
    /// The aligned buffer each write is copied into.
    private var buffer: UnsafeMutableRawPointer?
    private var bufferCapacity = 0

    /// The zeros written ahead of the records at a time.
    static let growthStep = 64 << 10
    /// The unit of every write: a multiple of any device's logical block, a divisor of
    /// ``growthStep``.
    static let blockSize = 4096

    /// Whether `open()` tries `O_DIRECT` (tests turn it off to check the page-cache path).
    private let triesDirect: Bool

    /// The journal at `path`; nothing is opened until `open()`.
    init(path: String, direct: Bool = true) {
        self.path = path
        triesDirect = direct
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
        buffer?.deallocate()
    }

    /// Whether the file is open for appending.
    var isOpen: Bool { fd >= 0 }

    /// Opens the file, creating it when missing. Records are appended only to an empty file or
    /// after `truncate()` (the owner folds what the file holds into its snapshot first; `append`
    /// refuses before). A new file's folder entry is not made durable here: the caller syncs the
    /// folder (its snapshot's rename) before appending.
    func open() throws(FileSystemError) {
        guard fd < 0 else { return }
        // `O_DIRECT` itself needs _GNU_SOURCE; glibc's per-architecture `__O_DIRECT` is its value.
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_DSYNC
        var opened = triesDirect ? Glibc.open(path, flags | __O_DIRECT, 0o600) : -1
        isDirect = opened >= 0
        if opened < 0 && (!triesDirect || errno == EINVAL) {
            // A file system without direct I/O: the same whole-block writes, through the page cache.
            opened = Glibc.open(path, flags, 0o600)
        }
        guard opened >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        var status = stat()
        guard fstat(opened, &status) == 0 else {
            let code = errno
            Glibc.close(opened)
            throw FileSystemError(operation: "fstat", path: path, code: code)
        }
        allocated = Int(status.st_size)
        size = allocated
        // What a non-empty file holds is folded into the snapshot and emptied first.
        isEmptied = allocated == 0
        tail = []
        fd = opened
    }

    /// Appends one record holding `payload` (not empty) and returns once it is durable. On
    /// failure the file is cut back to its whole records (when even that fails it is closed, and
    /// `isOpen` tells the owner to start a fresh one).
    func append(_ payload: [UInt8]) throws(FileSystemError) {
        guard fd >= 0, !payload.isEmpty, isEmptied else {
            throw FileSystemError(operation: "append", path: path, code: fd >= 0 ? EINVAL : EBADF)
        }
        // The block where the record starts, from its first byte: the earlier records' tail, then
        // the record (length, checksum, payload).
        var block = tail
        block.reserveCapacity(tail.count + payload.count + 8)
        Self.appendLittleEndian(UInt32(truncatingIfNeeded: payload.count), to: &block)
        Self.appendLittleEndian(CRC32.checksum(payload), to: &block)
        block.append(contentsOf: payload)
        let start = Self.blockStart(size)
        let newSize = start + block.count
        do throws(FileSystemError) {
            let end = Self.blockEnd(newSize)
            if end > allocated {
                // Zeros up to the next step past the record (made durable before the record),
                // from the first block after the file's end: a block holding records is only ever
                // written with the record that follows them, never with zeros.
                let grown = (end / Self.growthStep + 1) * Self.growthStep
                let growthStart = Self.blockEnd(allocated)
                try write([], paddedTo: grown - growthStart, at: growthStart)
                allocated = grown
            }
            // Durable when it returns (O_DSYNC): a failed flush is an error of this write.
            try write(block, paddedTo: end - start, at: start)
        } catch {
            if ftruncate(fd, off_t(size)) != 0 || fsync(fd) != 0 {
                close()
            } else {
                allocated = size
            }
            throw error
        }
        size = newSize
        tail = Array(block[(Self.blockStart(newSize) - start)...])
    }

    /// Whether appending a record of `payloadCount` bytes would write only blocks the file
    /// already holds (its zeros written ahead), with no growth: such a write can fail only by a
    /// device error, never for want of space.
    func overwritesInPlace(payloadCount: Int) -> Bool {
        fd >= 0 && isEmptied && payloadCount > 0 && Self.blockEnd(size + 8 + payloadCount) <= allocated
    }

    /// Writes zeros ahead of the records (durably) when less than half a ``growthStep`` is left,
    /// so the next records overwrite in place (``overwritesInPlace(payloadCount:)``). Nothing
    /// is lost when it fails (a full disk): the file is cut back to what it held, and an append
    /// grows it itself when it must.
    func growAhead() {
        guard fd >= 0, isEmptied, allocated - size < Self.growthStep / 2 else { return }
        let grown = (size / Self.growthStep + 2) * Self.growthStep
        let growthStart = Self.blockEnd(allocated)
        do throws(FileSystemError) {
            try write([], paddedTo: grown - growthStart, at: growthStart)
            allocated = grown
        } catch {
            _ = ftruncate(fd, off_t(allocated))
        }
    }

    /// Empties the file durably (nothing to do when it is empty).
    func truncate() throws(FileSystemError) {
        guard allocated > 0 else {
            isEmptied = fd >= 0
            return
        }
        guard ftruncate(fd, 0) == 0 else { throw FileSystemError(operation: "ftruncate", path: path, code: errno) }
        guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: path, code: errno) }
        size = 0
        allocated = 0
        tail = []
        isEmptied = true
    }

    /// Closes the file.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        size = 0
        allocated = 0
        tail = []
        isEmptied = false
    }

    private static func blockStart(_ offset: Int) -> Int { offset & ~(blockSize - 1) }
    private static func blockEnd(_ offset: Int) -> Int { blockStart(offset + blockSize - 1) }

    /// Writes `bytes` followed by zeros, `length` bytes in all (whole blocks), at `offset` (a
    /// block boundary), from the aligned buffer.
    private func write(_ bytes: [UInt8], paddedTo length: Int, at offset: Int) throws(FileSystemError) {
        if bufferCapacity < length {
            buffer?.deallocate()
            bufferCapacity = max(length, Self.growthStep)
            buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferCapacity, alignment: Self.blockSize)
        }
        guard let buffer else { throw FileSystemError(operation: "write", path: path, code: ENOMEM) }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: source.count) }
        }
        (buffer + bytes.count).initializeMemory(as: UInt8.self, repeating: 0, count: length - bytes.count)
        var written = 0
        while written < length {
            let count = pwrite(fd, buffer + written, length - written, off_t(offset + written))
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "write", path: path, code: errno)
            }
            written += count
        }
    }

    /// The payloads of the whole records at the start of `bytes`, and how many bytes follow the
    /// last of them that are not the zeros written ahead (an unfinished or damaged record; 0 when
    /// every record was read).
    static func records(in bytes: [UInt8]) -> (payloads: [ArraySlice<UInt8>], unreadBytes: Int) {
        var payloads: [ArraySlice<UInt8>] = []
        var offset = 0
        while bytes.count - offset >= 8 {
            let length = Int(readLittleEndian(bytes, at: offset))
            let checksum = readLittleEndian(bytes, at: offset + 4)
            let start = offset + 8
            guard length > 0, length <= bytes.count - start else { break }
            let payload = bytes[start..<(start + length)]
            guard payload.withUnsafeBytes({ CRC32.checksum($0) }) == checksum else { break }
            payloads.append(payload)
            offset = start + length
        }
        let rest = bytes[offset...]
        return (payloads, rest.allSatisfy { $0 == 0 } ? 0 : rest.count)
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { value, index in value | UInt32(bytes[offset + index]) << UInt32(8 * index) }
    }
}
