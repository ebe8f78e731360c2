/// A configuration mistake, located so a person can fix it: `file:line: key: what is wrong`.
///
/// A file with several mistakes is refused with the first of them in the file, which also lists
/// the others (``more``), so one check names them all (``ConfigProblems``).
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    /// The configuration file's path.
    public let file: String
    /// The 1-based line of the offending key or table (0 when the file could not be read at all).
    public let line: Int
    /// The dotted key path, e.g. `channel.main.speed` or `message[2].calendar` (the second
    /// `[[message]]`: tables of an array count from 1), or "" for the file.
    public let key: String
    /// What is wrong and, where it helps, what would be right.
    public let problem: String
    /// Further mistakes of the same file, in file order (each without ``more``).
    public internal(set) var more: [ConfigError] = []
    /// How many further mistakes were found beyond ``more`` and are only counted.
    public internal(set) var unlisted = 0

    /// An error at `line` of `file` about `key` (line 0: none; key "": the file itself).
    public init(file: String, line: Int, key: String, problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    /// This mistake and the further ones it lists, each without ``more``.
    public var listed: [ConfigError] {
        var first = self
        first.more = []
        first.unlisted = 0
        return [first] + more
    }

    /// `file:line: key: problem`, leaving out what is unknown; further mistakes follow, one a line,
    /// and then how many more there are.
    public var description: String {
        var lines = [location]
        lines += more.map(\.location)
        if unlisted > 0 { lines.append("\(file): and \(unlisted) more \(unlisted == 1 ? "mistake" : "mistakes")") }
        return lines.joined(separator: "\n")
    }

    /// This mistake alone: `file:line: key: problem`.
    private var location: String {
        switch (line, key.isEmpty) {
        case (0, true): return "\(file): \(problem)"
        case (0, false): return "\(file): \(key): \(problem)"
        case (_, true): return "\(file):\(line): \(problem)"
        case (_, false): return "\(file):\(line): \(key): \(problem)"
        }
    }
}
