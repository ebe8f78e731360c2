import TOMLConfig
import TickerSources

/// `sources.toml`. Properties: reading never traps; a refused file's error names the file, a line
/// within it (0 only when TOML itself could not place the fault), and a line of 1 or more when a
/// key is at fault; an accepted file has unique source names whose templates render.
enum SourcesConfigTarget {
    static let file = "/etc/tickerd/sources.toml"

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 8192, let source = String(validating: input.bytes, as: UTF8.self) else { return }
        let config: SourcesConfig
        do {
            config = try SourcesConfigLoader().parse(source, file: file)
        } catch {
            let lines = input.bytes.count { $0 == 0x0A } + 1
            // Every mistake listed is located; each has its line of the description.
            for mistake in error.listed {
                require(mistake.file == file, "error names file '\(mistake.file)': \(error)")
                require((0...lines + 1).contains(mistake.line), "error names line \(mistake.line) of \(lines): \(error)")
                require(mistake.key.isEmpty || mistake.line >= 1, "error names key '\(mistake.key)' without a line: \(error)")
            }
            require(error.listed.count <= ConfigProblems.listed, "\(error.listed.count) mistakes listed: \(error)")
            require(error.description.hasPrefix(file), "error does not start with the file: \(error)")
            require(error.listed.allSatisfy { error.description.contains($0.description) }, "a mistake is not described: \(error)")
            return
        }
        let names = config.entries.map(\.binding.name)
        require(Set(names).count == names.count, "source names repeat: \(names)")
        require(config.timing.lease >= 1_000_000, "lease below a second: \(config.timing.lease)")
        for entry in config.entries {
            _ = entry.binding.template.render([:])
            require(entry.binding.messageID(of: "key").hasPrefix("src/\(entry.binding.name)/"), "id of \(entry.binding.name)")
        }
    }
}
