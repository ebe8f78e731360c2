/// A configuration mistake, located so a person can fix it: `file:line: key: what is wrong`.
struct ConfigError: Error, CustomStringConvertible, Equatable {
    /// The configuration file's path.
    let file: String
    /// The 1-based line of the offending key or table (0 when the file could not be read at all).
    let line: Int
    /// The dotted key path, e.g. `channel.main.speed` or `message[2].calendar` ("" for the file).
    let key: String
    /// What is wrong and, where it helps, what would be right.
    let problem: String

    var description: String {
        switch (line, key.isEmpty) {
        case (0, true): return "\(file): \(problem)"
        case (0, false): return "\(file): \(key): \(problem)"
        case (_, true): return "\(file):\(line): \(problem)"
        case (_, false): return "\(file):\(line): \(key): \(problem)"
        }
    }
}
