import ArgumentParser

/// The tickerd daemon entry point.
@main
struct Tickerd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tickerd",
        abstract: "Publish live ticker text over D-Bus.",
        version: "0.1.0"
    )

    mutating func run() throws {
        print("tickerd: not yet implemented")
    }
}
