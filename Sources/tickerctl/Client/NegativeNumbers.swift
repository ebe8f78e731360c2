/// Negative numbers as positional arguments: `tickerctl set temperature -4.5`.
///
/// swift-argument-parser reads every word that starts with `-` as an option, so a negative VALUE
/// needed a `--` before it, and a script that sets a temperature worked all summer and failed at
/// the first frost. Options that take numbers are declared `.unconditional`; a positional has no
/// such strategy, so a command line that does not parse and holds words that read as negative
/// numbers (before any `--`, and not right after an option word, whose value such a word may be)
/// is tried again with those words moved after a `--` at its end, which keeps their order among
/// the positionals.
enum NegativeNumbers {
    /// `arguments`, or — when they do not parse and words among them read as negative numbers
    /// where no option can take them — the same with those words after a `--` at the end, if that
    /// parses. `parses` tells whether a command line parses.
    static func asPositionals(_ arguments: [String], parses: ([String]) -> Bool) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let numbers = arguments[..<end].indices.filter { index in
            guard index > 0, isNegativeNumber(arguments[index]) else { return false }
            let before = arguments[index - 1]
            return !before.hasPrefix("-") || isNegativeNumber(before)
        }
        guard !numbers.isEmpty, !parses(arguments) else { return arguments }
        var moved = arguments[..<end].indices.filter { !numbers.contains($0) }.map { arguments[$0] }
        moved.append("--")
        moved += numbers.map { arguments[$0] }
        moved += arguments[end...].dropFirst()
        return parses(moved) ? moved : arguments
    }

    /// True for `-4`, `-4.5`, `-.5`, `-1e3`: a minus sign and a finite number.
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1, let value = Double(word) else { return false }
        return value.isFinite
    }
}
