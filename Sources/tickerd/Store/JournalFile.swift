import Glibc

/// A file of records, each durable before ``append(_:)`` returns: the record is appended with one
/// `write` and made durable with `fdatasync`.
///
/// A record is its payload's length (4 bytes, little-endian, never 0), the payload's CRC-32
/// (4 bytes, little-endian) and the payload. A crash can cut only the last record short, and only
/// a record whose `append` never returned; reading stops at the first record that is not whole.
/// A failed append cuts the file back to its whole records, so a later record never follows a
/// broken one.
final class JournalFile {
    /// The file's path.
    let path: String
    /// Bytes of whole records in the file (where the next record goes).
    private(set) var size = 0
    private var fd: Int32 = -1
    /// Whether the file was empty when opened or emptied since (records go only after others
    /// written here, never after bytes of unknown meaning).
    private var isEmptied = false

    /// The journal at `path`; nothing is opened until `open()`.
    init(path: String) {
        self.path = path
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Whether the file is open for appending.
    var isOpen: Bool { fd >= 0 }

    /// Opens the file, creating it when missing. Records are appended only to an empty file or
    /// after `truncate()` (the owner folds what the file holds into its snapshot first; `append`
    /// refuses before). A new file's folder entry is not made durable here: the caller syncs the
    /// folder (its snapshot's rename) before appending.
    func open() throws(FileSystemError) {
        guard fd < 0 else { return }
        let opened = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw FileSystemError(operation: "open", path: path, code: errno) }
        let end = lseek(opened, 0, SEEK_END)
        guard end >= 0 else {
            let code = errno
            Glibc.close(opened)
            throw FileSystemError(operation: "lseek", path: path, code: code)
        }
        size = Int(end)
        // What a non-empty file holds is folded into the snapshot and emptied first.
        isEmptied = size == 0
        fd = opened
    }

    /// Appends one record holding `payload` (not empty) and returns once it is durable. On
    /// failure the file is cut back to its whole records (when even that fails it is closed, and
    /// `isOpen` tells the owner to start a fresh one).
    func append(_ payload: [UInt8]) throws(FileSystemError) {
        guard fd >= 0, !payload.isEmpty, isEmptied else {
            throw FileSystemError(operation: "append", path: path, code: fd >= 0 ? EINVAL : EBADF)
        }
        var record: [UInt8] = []
        record.reserveCapacity(payload.count + 8)
        Self.appendLittleEndian(UInt32(truncatingIfNeeded: payload.count), to: &record)
        Self.appendLittleEndian(CRC32.checksum(payload), to: &record)
        record.append(contentsOf: payload)
        do throws(FileSystemError) {
            try write(record, at: size)
            guard fdatasync(fd) == 0 else { throw FileSystemError(operation: "fdatasync", path: path, code: errno) }
        } catch {
            if ftruncate(fd, off_t(size)) != 0 || fsync(fd) != 0 { close() }
            throw error
        }
        size += record.count
    }

    /// Empties the file durably (nothing to do when it is empty).
    func truncate() throws(FileSystemError) {
        guard fd >= 0 else { throw FileSystemError(operation: "ftruncate", path: path, code: EBADF) }
        if size > 0 || !isEmptied {
            guard ftruncate(fd, 0) == 0 else { throw FileSystemError(operation: "ftruncate", path: path, code: errno) }
            guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: path, code: errno) }
        }
        size = 0
        isEmptied = true
    }

    /// Closes the file.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        size = 0
        isEmptied = false
    }

    private func write(_ bytes: [UInt8], at offset: Int) throws(FileSystemError) {
        let code: Int32? = bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = pwrite(fd, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        if let code { throw FileSystemError(operation: "write", path: path, code: code) }
    }

    /// The payloads of the whole records at the start of `bytes`, and how many bytes follow the
    /// last of them that are not zeros (an unfinished or damaged record; 0 when every record was
    /// read).
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
        // Zeros after the records are no record (earlier versions wrote them ahead of the records).
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
