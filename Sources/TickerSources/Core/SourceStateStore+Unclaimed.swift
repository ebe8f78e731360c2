import Foundation
import Glibc

extension SourceStateStore {
    /// The file a source of kind `kind` (its `type`) named `source` keeps its state in:
    /// `<kind>-<source>.json`, or `<kind>-<source>.<part>.json` for a further file of its, `part`
    /// being lowercase letters (a source name holds no dot, so no two sources' files meet).
    public static func fileName(kind: String, source: String, part: String? = nil) -> String {
        "\(kind)-\(source)\(part.map { "." + $0 } ?? "").json"
    }

    /// What ``removeUnclaimed(keeping:kinds:)`` did.
    public struct Tidying: Equatable, Sendable {
        /// The paths removed.
        public var removed: [String] = []
        /// The paths that could not be removed (or the directory, when it could not be read),
        /// each with the system's reason.
        public var failed: [Failure] = []

        /// A path that could not be removed, and why.
        public struct Failure: Equatable, Sendable {
            /// The path.
            public var path: String
            /// The system's reason.
            public var reason: String
        }
    }

    /// Removes the state files that belong to no configured source: the regular files named
    /// `<kind>-<name>.json` or `<kind>-<name>.<part>.json` (and the half-written `.<file>.new` a
    /// crash can leave), where `kind` is one of `kinds` and `name` a valid source name, whose
    /// source's `<kind>-<name>.json` is not in `keeping` (the ``fileName(kind:source:part:)``
    /// without part of every configured source).
    ///
    /// Guarantees: nothing else is touched: files of other names, directories, symbolic links and
    /// the files in `keeping` stay. A directory that does not exist yet has nothing to remove.
    public func removeUnclaimed(keeping: Set<String>, kinds: Set<String>) -> Tidying {
        var tidying = Tidying()
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            if access(directory, F_OK) != 0 && errno == ENOENT { return tidying }
            tidying.failed.append(.init(path: directory, reason: (error as NSError).localizedDescription))
            return tidying
        }
        for name in names.sorted() {
            guard let file = Self.stateFile(named: name, kinds: kinds), !keeping.contains(file) else { continue }
            let path = path(name)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 {
                tidying.removed.append(path)
            } else if errno != ENOENT {
                tidying.failed.append(.init(path: path, reason: String(cString: strerror(errno))))
            }
        }
        return tidying
    }

    /// The main state file (`<kind>-<name>.json`) of the source that file `name` belongs to (a
    /// state file itself, one of its further parts, or the file a `.<file>.new` was to replace)
    /// when it is named as a source of one of `kinds` names its files; nil for any other name.
    static func stateFile(named name: String, kinds: Set<String>) -> String? {
        var file = Substring(name)
        if file.hasPrefix("."), file.hasSuffix(".new") { file = file.dropFirst().dropLast(4) }
        guard file.hasSuffix(".json") else { return nil }
        var stem = file.dropLast(5)
        if let dot = stem.lastIndex(of: ".") {
            let part = stem[stem.index(after: dot)...]
            guard !part.isEmpty, part.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) else { return nil }
            stem = stem[..<dot]
        }
        let named = kinds.contains { kind in
            stem.hasPrefix(kind + "-") && SourcesConfigLoader.isSourceName(stem.dropFirst(kind.count + 1))
        }
        return named ? String(stem) + ".json" : nil
    }
}
