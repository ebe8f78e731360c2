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
/// records (a length of 0).
final class JournalFile {
    /// The file's path.
    let path: String
    /// Bytes of whole records at the start of the file (where the next record goes).
    private(set) var size = 0
    /// Bytes in the file: the records, then zeros.
    private var allocated = 0
    private var fd: Int32 = -1

    /// The zeros written ahead of the records at a time.
    static let growthStep = 64 << 10

    /// The journal at `path`; nothing is opened until `open()`.
    init(path: String) {
        self.path = path
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Whether the file is open for appending.
    var isOpen: Bool { fd >= 0 }

    /// Opens the file, creating it when missing. Records are appended only after `truncate()`
    /// (the owner folds what the file holds into its snapshot first). A new file's folder entry is
    /// not made durable here: the caller syncs the folder (its snapshot's rename) before appending.
    func open() throws(FileSystemError) {
        guard fd < 0 else { return }
        let opened = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_DSYNC, 0o600)
        guard opened >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        var status = stat()
        guard fstat(opened, &status) == 0 else {
            let code = errno
            Glibc.close(opened)
            throw FileSystemError(operation: "fstat", path: path, code: code)
        }
        fd = opened
        allocated = Int(status.st_size)
        size = allocated
    }

    /// Appends one record holding `payload` (not empty) and returns once it is durable. On
    /// failure the file is cut back to its whole records (when even that fails it is closed, and
    /// `isOpen` tells the owner to start a fresh one).
    func append(_ payload: [UInt8]) throws(FileSystemError) {
        guard fd >= 0, !payload.isEmpty else {
            throw FileSystemError(operation: "append", path: path, code: fd >= 0 ? EINVAL : EBADF)
        }
        var record: [UInt8] = []
        record.reserveCapacity(payload.count + 8)
        Self.appendLittleEndian(UInt32(truncatingIfNeeded: payload.count), to: &record)
        Self.appendLittleEndian(CRC32.checksum(payload), to: &record)
        record.append(contentsOf: payload)
        do throws(FileSystemError) {
            let end = size + record.count
            if end > allocated {
                // Zeros up to the next step past the record (made durable before the record).
                let grown = (end / Self.growthStep + 1) * Self.growthStep
                try write([UInt8](repeating: 0, count: grown - allocated), at: allocated)
                allocated = grown
            }
            // Durable when it returns (O_DSYNC): a failed flush is an error of this write.
            try write(record, at: size)
        } catch {
            if ftruncate(fd, off_t(size)) != 0 || fsync(fd) != 0 {
                close()
            } else {
                allocated = size
            }
            throw error
        }
        size += record.count
    }

    /// Empties the file durably (nothing to do when it is empty).
    func truncate() throws(FileSystemError) {
        guard allocated > 0 else { return }
        guard ftruncate(fd, 0) == 0 else { throw FileSystemError(operation: "ftruncate", path: path, code: errno) }
        guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: path, code: errno) }
        size = 0
        allocated = 0
    }

    /// Closes the file.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        size = 0
        allocated = 0
    }

    private func write(_ bytes: [UInt8], at offset: Int) throws(FileSystemError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                pwrite(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written, off_t(offset + written))
            }
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
