import Foundation

/// What tells that a file changed without reading it: device, inode, size and modification
/// time (nanoseconds). A poll compares stamps; any difference (including the file appearing
/// or going away) means read it again.
public struct FileStamp: Sendable, Equatable {
    /// The stat fields compared, or nil when the file cannot be stat'ed.
    let fields: [Int64]?

    /// The stamp of `path` now (a missing file has a stamp too, equal to other missing ones).
    public init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            fields = nil
            return
        }
        fields = [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size),
                  Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec),
                  Int64(info.st_ctim.tv_nsec)]
    }

    /// Whether the file existed when stamped.
    public var exists: Bool { fields != nil }
}
