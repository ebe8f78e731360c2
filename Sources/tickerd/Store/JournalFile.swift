import Glibc

/// An append-only file of records, each made durable with one `fdatasync` before `append`
/// returns: the cheapest durable write there is (no temporary file, no rename, no folder sync).
///
/// A record is its payload's length (4 bytes, little-endian), the payload's CRC-32 (4 bytes,
/// little-endian) and the payload. A crash can cut only the last record short, and only a record
/// whose `append` never returned; reading stops at the first record that is not whole.
final class JournalFile {
    /// The file's path.
    let path: String
    /// Bytes in the file (all of them whole records).
    private(set) var size = 0
    private var fd: Int32 = -1

    /// The journal at `path`; nothing is opened until `open()`.
    init(path: String) {
        self.path = path
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Whether the file is open for appending.
    var isOpen: Bool { fd >= 0 }

    /// Opens the file for appending, creating it when missing. A new file's folder entry is not
    /// made durable here: the caller syncs the folder (its snapshot's rename) before appending.
    func open() throws(FileSystemError) {
        guard fd < 0 else { return }
        let opened = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        var status = stat()
        guard fstat(opened, &status) == 0 else {
            let code = errno
            Glibc.close(opened)
            throw FileSystemError(operation: "fstat", path: path, code: code)
        }
        fd = opened
        size = Int(status.st_size)
    }

    /// Appends one record holding `payload` and returns once it is durable. On failure the file
    /// is cut back to its whole records (when even that fails it is closed, and `isOpen` tells
    /// the owner to start a fresh one).
    func append(_ payload: [UInt8]) throws(FileSystemError) {
        guard fd >= 0 else { throw FileSystemError(operation: "append", path: path, code: EBADF) }
        var record: [UInt8] = []
        record.reserveCapacity(payload.count + 8)
        Self.appendLittleEndian(UInt32(truncatingIfNeeded: payload.count), to: &record)
        Self.appendLittleEndian(CRC32.checksum(payload), to: &record)
        record.append(contentsOf: payload)
        do throws(FileSystemError) {
            try AtomicFile.writeAll(record, to: fd, path: path)
            guard fdatasync(fd) == 0 else { throw FileSystemError(operation: "fdatasync", path: path, code: errno) }
        } catch {
            if ftruncate(fd, off_t(size)) != 0 || fsync(fd) != 0 { close() }
            throw error
        }
        size += record.count
    }

    /// Empties the file durably (nothing to do when it is empty).
    func truncate() throws(FileSystemError) {
        guard size > 0 else { return }
        guard ftruncate(fd, 0) == 0 else { throw FileSystemError(operation: "ftruncate", path: path, code: errno) }
        guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: path, code: errno) }
        size = 0
    }

    /// Closes the file.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        size = 0
    }

    /// The payloads of the whole records at the start of `bytes`, and how many bytes follow the
    /// last of them (an unfinished or damaged tail; 0 when every byte was read).
    static func records(in bytes: [UInt8]) -> (payloads: [ArraySlice<UInt8>], unreadBytes: Int) {
        var payloads: [ArraySlice<UInt8>] = []
        var offset = 0
        while bytes.count - offset >= 8 {
            let length = Int(readLittleEndian(bytes, at: offset))
            let checksum = readLittleEndian(bytes, at: offset + 4)
            let start = offset + 8
            guard length <= bytes.count - start else { break }
            let payload = bytes[start..<(start + length)]
            guard payload.withUnsafeBytes({ CRC32.checksum($0) }) == checksum else { break }
            payloads.append(payload)
            offset = start + length
        }
        return (payloads, bytes.count - offset)
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { value, index in value | UInt32(bytes[offset + index]) << UInt32(8 * index) }
    }
}
