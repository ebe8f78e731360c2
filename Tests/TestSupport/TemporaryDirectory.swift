import Foundation

/// A fresh directory under `$TMPDIR` (or /tmp), removed with its contents on ``remove()`` or deinit.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates `<tmp>/<prefix>.XXXXXX`.
    public init(prefix: String = "tickerd-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw TestSupportError("mkdtemp failed: errno \(errno)") }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { remove() }

    /// Removes the directory tree.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }
}

/// A failure of a test helper, with a message saying what went wrong.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
