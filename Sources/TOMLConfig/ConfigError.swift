/// A configuration mistake, located so a person can fix it: `file:line: key: what is wrong`.
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

    /// An error at `line` of `file` about `key` (line 0: none; key "": the file itself).
    public init(file: String, line: Int, key: String, problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    /// `file:line: key: problem`, leaving out what is unknown.
    public var description: String {
        switch (line, key.isEmpty) {
        case (0, true): return "\(file): \(problem)"
        case (0, false): return "\(file): \(key): \(problem)"
        case (_, true): return "\(file):\(line): \(problem)"
        case (_, false): return "\(file):\(line): \(key): \(problem)"
        }
    }
}
