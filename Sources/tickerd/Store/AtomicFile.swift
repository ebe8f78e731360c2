import Glibc
import TickerHost

/// An error from the file system, with the operation, the path and `strerror(errno)`.
struct FileSystemError: Error, CustomStringConvertible, Equatable {
    /// What was being done: "open", "write", "fsync", "rename", …
    let operation: String
    /// The file or folder it was done to.
    let path: String
    /// The `errno` value the call left.
    let code: Int32

    var description: String {
        "\(operation) \(path): \(String(cString: strerror(code)))"
    }
}

/// Crash-safe whole-file writes: write a temporary file beside the target, `fsync` it, `rename` it
/// over the target and `fsync` the folder, so a reader sees either the old or the new content,
/// never a mix, even after power loss or `kill -9`.
enum AtomicFile {
    /// Replaces the file at `path` with `bytes`, atomically and durably.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(FileSystemError) {
        let folder = parentFolder(of: path)
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileSystemError(operation: "open", path: temporary, code: errno) }
        do throws(FileSystemError) {
            try writeAll(bytes, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: temporary, code: errno) }
            guard close(fd) == 0 else {
                throw FileSystemError(operation: "close", path: temporary, code: errno)
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(operation: "rename", path: path, code: code)
        }
        try syncFolder(folder)
    }

    /// The whole content of the file at `path`, or nil when there is no such file.
    static func read(_ path: String) throws(FileSystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw FileSystemError(operation: "open", path: path, code: errno)
        }
        defer { close(fd) }
        do {
            return try DescriptorReader.bytes(of: fd)
        } catch {
            throw FileSystemError(operation: "read", path: path, code: error.code)
        }
    }

    /// Creates `path` and its missing parents (like `mkdir -p`), with `mode` for new folders.
    static func makeFolders(_ path: String, mode: mode_t = 0o700) throws(FileSystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, mode) != 0, errno != EEXIST {
                throw FileSystemError(operation: "mkdir", path: prefix, code: errno)
            }
        }
    }

    /// The folder holding `path` ("." for a bare name).
    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes all of `bytes` to `fd` (retrying short writes and EINTR); `path` names it in errors.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(FileSystemError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(operation: "write", path: path, code: errno)
            }
            written += count
        }
    }

    /// Makes `folder`'s entries (a rename, a new file) durable.
    static func syncFolder(_ folder: String) throws(FileSystemError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(operation: "open", path: folder, code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: folder, code: errno) }
    }
}
