import Foundation

/// A fresh folder under the temporary directory, removed on ``remove()``.
final class ScratchDirectory {
    /// Its absolute path.
    let path: String

    /// Creates `/tmp/<prefix>.XXXXXX`.
    init(prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix).XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw BenchError("mkdtemp: \(String(cString: strerror(errno)))") }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the folder and everything in it.
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
