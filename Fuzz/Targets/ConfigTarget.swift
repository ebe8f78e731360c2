import TickerModel
@testable import tickerd

/// `tickerd.toml`. Properties:
/// - a refused file's error names the file, a line within it (0 only when TOML itself could not
///   place the fault) and, when a key is at fault, a line of 1 or more;
/// - a file with a NUL byte is refused, on the line of its first NUL (the parser reads a C
///   string: it would end the file there, silently);
/// - a file that loads applies to a fresh daemon state without error (a reload never fails
///   after the file was accepted, where the error could not name file, line and key), and every
///   channel it makes renders frames of exactly the asked width and moves at most at the speed
///   limit (a `cycle` too short for its tape must not pass it).
enum ConfigTarget {
    static let file = "/etc/tickerd/fuzz.toml"
    static let now: Instant = 1_711_845_000_000_000

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 8192, let source = String(validating: input.bytes, as: UTF8.self) else { return }
        let loader = ConfigLoader(zones: FuzzZones.table)
        let config: DaemonConfig
        do {
            config = try loader.parse(source, file: file)
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
            if let nul = input.bytes.firstIndex(of: 0) {
                let line = input.bytes[..<nul].count { $0 == 0x0A } + 1
                require(error.line == line && error.description.contains("NUL"), "a NUL on line \(line) gave: \(error)")
            }
            return
        }
        require(!input.bytes.contains(0), "a file with a NUL byte loaded\n--- file ---\n\(source.debugDescription)")
        let manager = Manager(zones: FuzzZones.table, clock: { now })
        do {
            try manager.apply(config: config)
        } catch {
            require(false, "the file loaded, but applying it failed: \(error)\n--- file ---\n\(source)")
        }
        for name in manager.channels.keys {
            if let speed = manager.channels[name]?.timeline.speed {
                require(speed <= ChannelSettings.maximumRate, "channel '\(name)' moves at \(speed) cells per second")
            }
            for columns: UInt32 in [1, 13, 80] {
                guard let frame = try? manager.render(channel: name, columns: columns, at: now + 2_500_000) else {
                    require(false, "channel '\(name)' made by the file does not render")
                    return
                }
                require(CellWidth.of(frame.text) == Int(columns), "channel '\(name)': frame '\(frame.text)' is not \(columns) cells")
            }
        }
    }
}
