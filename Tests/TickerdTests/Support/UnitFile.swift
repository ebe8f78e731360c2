import Foundation
import TestSupport

/// A systemd unit file of the repo, read as its `Key=value` lines by section, and copied to a
/// temporary folder with its ExecStart pointed at a built binary for `systemd-analyze`.
struct UnitFile {
    /// The path in the repo, e.g. `systemd/tickerd.service`.
    let relativePath: String
    /// The file's text.
    let text: String

    /// Reads `relativePath` of the repo.
    init(_ relativePath: String) throws {
        self.relativePath = relativePath
        text = try Repository.read(relativePath)
    }

    /// Every `(section, key, value)` assignment in order (comments and blank lines skipped).
    var assignments: [(section: String, key: String, value: String)] {
        var section = ""
        var result: [(String, String, String)] = []
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()); continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            result.append((section, String(line[..<equals]), String(line[line.index(after: equals)...])))
        }
        return result
    }

    /// The values of `key` (in any section), in order.
    func values(_ key: String) -> [String] { assignments.filter { $0.key == key }.map(\.value) }

    /// The keys set in `section`.
    func keys(in section: String) -> Set<String> { Set(assignments.filter { $0.section == section }.map(\.key)) }

    /// A copy named like the original in a fresh folder, `/usr/bin/tickerd` replaced by `binary`.
    func copy(pointingAt binary: String) throws -> (folder: TemporaryDirectory, path: String) {
        let folder = try TemporaryDirectory(prefix: "tickerd-unit")
        let path = folder.file(URL(fileURLWithPath: relativePath).lastPathComponent)
        try text.replacingOccurrences(of: "/usr/bin/tickerd", with: binary).write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }
}

/// `systemd-analyze` runs for the unit tests (offline: no manager is started).
enum SystemdAnalyze {
    /// A MANPATH holding the repo's man pages in `man<section>/` folders, so `verify` finds
    /// `Documentation=man:tickerd(8)`.
    static func manPath() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "tickerd-manpath")
        for page in try FileManager.default.contentsOfDirectory(atPath: Repository.path("man")) {
            guard let section = page.split(separator: ".").last, section.count == 1 else { continue }
            let sectionFolder = folder.file("man\(section)")
            try FileManager.default.createDirectory(atPath: sectionFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: sectionFolder + "/" + page,
                                                       withDestinationPath: Repository.path("man/" + page))
        }
        return folder
    }

    /// `systemd-analyze verify` of `unit` (a copy pointing at the built tickerd); `user` verifies
    /// it for a user manager, with a private XDG_RUNTIME_DIR.
    static func verify(_ unit: UnitFile, user: Bool) throws -> ChildProcess.Output {
        let copy = try unit.copy(pointingAt: Repository.builtProduct("tickerd"))
        let man = try manPath()
        let runtime = try TemporaryDirectory(prefix: "tickerd-runtime")
        let arguments = ["verify", "--no-pager"] + (user ? ["--user"] : []) + [copy.path]
        return try ChildProcess.run("systemd-analyze", arguments,
                                    environment: ["MANPATH": man.path, "XDG_RUNTIME_DIR": runtime.path, "SYSTEMD_LOG_COLOR": "0"],
                                    timeout: .seconds(60))
    }

    /// The overall exposure `systemd-analyze security --offline=yes` gives `unit`, and its report.
    static func exposure(_ unit: UnitFile, user: Bool) throws -> (score: Double, report: String) {
        let runtime = try TemporaryDirectory(prefix: "tickerd-runtime")
        let arguments = ["security", "--offline=yes", "--no-pager"] + (user ? ["--user"] : []) + [Repository.path(unit.relativePath)]
        let output = try ChildProcess.run("systemd-analyze", arguments,
                                          environment: ["XDG_RUNTIME_DIR": runtime.path, "SYSTEMD_COLORS": "0"],
                                          timeout: .seconds(60))
        let marker = "Overall exposure level for tickerd.service:"
        guard output.status == 0,
              let line = output.stdout.split(separator: "\n").first(where: { $0.contains(marker) }),
              let word = line.components(separatedBy: marker).last?.split(separator: " ").first,
              let score = Double(word)
        else { throw TestSupportError("no exposure in systemd-analyze security: \(output.stdout) \(output.stderr)") }
        return (score, output.stdout)
    }
}
