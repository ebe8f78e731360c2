import Foundation

/// The commands of a Markdown document's ```sh blocks, as a reader would type them: one per line,
/// a line ending in `\` joined with the next, surrounding spaces trimmed.
enum MarkdownShellLines {
    /// The commands of `markdown`'s ```sh blocks, in order (empty lines included as "").
    static func commands(in markdown: String) -> [String] {
        var commands: [String] = []
        var inShell = false
        var current = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            guard inShell else { continue }
            if line.hasSuffix("\\") {
                current += line.dropLast() + " "
                continue
            }
            commands.append((current + line).trimmingCharacters(in: .whitespaces))
            current = ""
        }
        return commands
    }
}
