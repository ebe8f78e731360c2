/// Lets `--bus` come before the command name (`tickerctl --bus system status`), as the usage line
/// promises: swift-argument-parser only accepts a subcommand's options after its name, so the
/// leading `--bus` words are moved behind the name before parsing.
enum GlobalArguments {
    /// `arguments` (without the program name) with leading `--bus X` / `--bus=X` moved after the
    /// first word that is not an option (dropped before `help`, and when no command follows).
    static func reorder(_ arguments: [String]) -> [String] {
        var global: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("--bus=") {
                global.append(word)
                index += 1
            } else if word == "--bus", index + 1 < arguments.count {
                global += [word, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !global.isEmpty else { return arguments }
        // `tickerctl --bus system` alone names no command: the same usage mistake as `tickerctl`.
        guard index < arguments.count else { return [] }
        // `help` talks to no bus and takes no --bus: `tickerctl --bus system help post` is help.
        if arguments[index] == "help" { return Array(arguments[index...]) }
        return [arguments[index]] + global + arguments[(index + 1)...]
    }
}
