import Foundation
import Testing
import TestSupport

/// `make demo` (scripts/demo.sh) with the binaries built beside the tests: a newcomer sees the
/// ticker moving, the counter counting, the busy dots, a command source's clock and a calendar
/// source's all-day event, the commands it suggests work as printed, and Ctrl-C stops all of it.
@Suite(.serialized) struct DemoTests {
    @Test func theDemoShowsAMovingTickerAndCtrlCStopsEverything() throws {
        let demo = try ChildProcess(Repository.path("scripts/demo.sh"), [], environment: [
            "BIN": Repository.buildProducts, "COLUMNS_DEMO": "40",
        ])
        defer { demo.kill(SIGKILL) }
        // Not a terminal, so `tickerctl follow --format plain` prints one line a frame.
        func frames(_ output: String) -> [String] {
            guard let start = output.range(of: "Ctrl-C to stop.\n\n") else { return [] }
            return output[start.upperBound...].split(separator: "\n").map(String.init)
        }
        // The counter shows a number (it counts up to 1,280 over the first half minute).
        func showsCount(_ line: String) -> Bool { line.contains(/Builds today: [0-9]/) }
        #expect(demo.waitForOutput(timeout: .seconds(60)) { output in
            let lines = frames(output)
            return Set(lines).count >= 10 && lines.contains(where: showsCount)
        }, "\(demo.standardOutput)\n\(demo.standardError)")
        // The command source of tickerd-sources: the clock, its text replaced every second.
        #expect(demo.waitForOutput(timeout: .seconds(60)) { frames($0).contains { $0.contains(/time is [0-9]{2}:/) } },
                "\(demo.standardOutput)\n\(demo.standardError)")
        // The calendar source: today's all-day event, through its template.
        #expect(demo.waitForOutput(timeout: .seconds(60)) { frames($0).contains { $0.contains("It's tickerd demo day!") } },
                "\(demo.standardOutput)\n\(demo.standardError)")
        let lines = frames(demo.standardOutput)
        #expect(lines.allSatisfy { $0.count == 40 }, "every frame is 40 cells wide")
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "the ticker moves: each line differs")
        let folder = try #require(demo.standardOutput.firstMatch(of: /unix:path=(\/tmp\/tickerd-demo\.[A-Za-z0-9]+)\/bus/))
        #expect(FileManager.default.fileExists(atPath: String(folder.1)))

        // The commands it suggests work as printed from another terminal, which starts in another
        // folder: the post shows up in the ticker, and the busctl call answers with a frame.
        let suggested = try #require(demo.standardOutput.firstMatch(of: /Try in another terminal:\n((?:  .*\n)+)Ctrl-C/))
        let commands = suggested.1.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(commands.contains { $0.contains(" post ") } && commands.contains { $0.hasPrefix("busctl ") })
        for command in commands {
            let run = try ChildProcess("/bin/sh", ["-c", "cd / && " + command])
            #expect(try run.wait(timeout: .seconds(20)) == 0, "\(command)\n\(run.standardError)")
            if command.hasPrefix("busctl ") { #expect(run.standardOutput.hasPrefix("sda{sv} \""), "\(run.standardOutput)") }
        }
        #expect(demo.waitForOutput(timeout: .seconds(60)) { frames($0).contains { $0.contains("Hello from another") } },
                "\(demo.standardOutput)\n\(demo.standardError)")

        // Ctrl-C: the script stops the bus, the daemon and follow (by PID) and removes its folder.
        demo.kill(SIGINT)
        #expect(try demo.wait(timeout: .seconds(20)) == 0)
        #expect(!FileManager.default.fileExists(atPath: String(folder.1)))
    }
}
