import Foundation

/// Reads a local file whole, with the system's own reason when it cannot ("No such file or
/// directory", "Permission denied", "Is a directory"), for a log line a person can act on.
public enum LocalFile {
    /// The bytes of the file at `path`; throws a ``LocalFileError`` naming the path and the
    /// reason. A file over `maximumBytes` is refused (a calendar this big is a mistake).
    public static func contents(of path: String, maximumBytes: Int = 8 << 20) throws(LocalFileError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LocalFileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw LocalFileError(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw LocalFileError(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "Is a directory" : "not a regular file")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LocalFileError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            if data.count > maximumBytes {
                throw LocalFileError(path: path, reason: "over the limit of \(maximumBytes) bytes")
            }
        }
    }
}

/// Why a local file could not be read: `cannot read <path>: <reason>`.
public struct LocalFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The system's reason (strerror) or the limit it passed.
    public let reason: String

    /// `cannot read <path>: <reason>`.
    public var description: String { "cannot read \(path): \(reason)" }
}
