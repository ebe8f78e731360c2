import Foundation

/// Paths in the repository the tests were built from, and of the products built beside the tests.
enum Repository {
    /// The repository's root: four levels above this file (`Tests/TickerdTests/Support/…`).
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TickerdTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .path

    /// `root/relative`.
    static func path(_ relative: String) -> String { root + "/" + relative }

    /// The folder of the running test bundle, where SwiftPM also puts `tickerd` and `tickerctl`
    /// (`.build/<triple>/debug` for `swift build --build-tests`).
    static let buildProducts: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        return URL(fileURLWithPath: executable).deletingLastPathComponent().path
    }()

    /// The built product `name` (e.g. `tickerd`) beside the test bundle.
    static func builtProduct(_ name: String) -> String { buildProducts + "/" + name }

    /// The text of the repository file `relative`.
    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }
}
