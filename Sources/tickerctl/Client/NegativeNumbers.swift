/// Negative values without a `--`: `tickerctl set temperature -4.5`, `tickerctl post --ttl -5s x`.
///
/// swift-argument-parser reads every word that starts with `-` as an option, so a negative VALUE
/// needed a `--` before it, and a script that sets a temperature worked all summer and failed at
/// the first frost; an option given a negative value (`--ttl -5s`, `--columns -3`) was "missing its
/// value" instead of getting the value's own error. A command line that does not parse and holds
/// words that read as negative values (before any `--`) is tried again with each such word either
/// joined to the option word before it (`--ttl=-5s`) or, for a number, moved after a `--` at the
/// end, which keeps its order among the positionals; the first reading that parses is used (when
/// none does, the one that joins values to their options, whose error names the value).
enum NegativeNumbers {
    /// The most words tried both ways (2ⁿ readings); more are left as they are.
    static let mostWordsTried = 4

    /// `arguments`, or — when they do not parse and words among them read as negative values —
    /// the first reading of them that parses, with each such word joined to the option before it or
    /// (a number) moved after a `--` at the end; when none parses, the reading that joins words to
    /// options (its error is about the value), else `arguments`. `parses` tells whether a command
    /// line parses.
    static func asPositionals(_ arguments: [String], parses: ([String]) -> Bool) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let words = arguments[..<end].indices.filter { index in
            index > 0 && readsAsNegative(arguments[index])
        }
        guard !words.isEmpty, words.count <= mostWordsTried, !parses(arguments) else { return arguments }
        let readings = readings(of: words, in: arguments)
        for reading in readings {
            let candidate = rewritten(arguments, end: end, reading: reading)
            if parses(candidate) { return candidate }
        }
        // None parses: the reading that gives options their values, so the error is the value's.
        guard let joining = readings.first, joining.values.contains(true) else { return arguments }
        return rewritten(arguments, end: end, reading: joining)
    }

    /// How each word may be read: joined to the option word before it (`true`) or moved to the
    /// positionals (`false`); joined first, so an option that takes the value gets it. None when a
    /// word can be read neither way.
    private static func readings(of words: [Int], in arguments: [String]) -> [[Int: Bool]] {
        var readings: [[Int: Bool]] = [[:]]
        for index in words {
            var ways: [Bool] = []
            if isOptionWord(arguments[index - 1]) { ways.append(true) }
            if isNegativeNumber(arguments[index]) { ways.append(false) }
            readings = readings.flatMap { reading in
                ways.map { joined in reading.merging([index: joined]) { $1 } }
            }
        }
        return readings
    }

    /// `arguments` with the words of `reading` joined or moved after a `--`.
    private static func rewritten(_ arguments: [String], end: Int, reading: [Int: Bool]) -> [String] {
        var kept: [String] = []
        var moved: [String] = []
        for index in arguments[..<end].indices {
            switch reading[index] {
            case true?: kept[kept.count - 1] += "=" + arguments[index]
            case false?: moved.append(arguments[index])
            case nil: kept.append(arguments[index])
            }
        }
        guard !moved.isEmpty else { return kept + arguments[end...] }
        return kept + ["--"] + moved + arguments[end...].dropFirst()
    }

    /// A long option word that does not carry its value: `--ttl`, not `--ttl=5s` or `--`.
    static func isOptionWord(_ word: String) -> Bool {
        word.hasPrefix("--") && word.count > 2 && !word.contains("=")
    }

    /// A minus sign and a digit or a point: `-4.5`, `-5s`, `-.5`.
    static func readsAsNegative(_ word: String) -> Bool {
        let scalars = word.unicodeScalars.dropFirst()
        guard word.hasPrefix("-"), let first = scalars.first else { return false }
        return first == "." || ("0"..."9").contains(first)
    }

    /// True for `-4`, `-4.5`, `-.5`, `-1e3`: a minus sign and a finite number.
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1, let value = Double(word) else { return false }
        return value.isFinite
    }
}
