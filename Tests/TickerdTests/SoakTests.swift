import Foundation
import TestSupport
import Testing

/// The short soak inside the suite (issue 10, "Load"): `tickerd-bench --soak` with 20
/// subscribers × 30 fps for 5 s plus a Post every 10 ms, against the debug daemon. It asserts what
/// holds on any machine: nobody is disconnected, no subscriber gets frames faster than it asked
/// nor is starved, every Post sent is answered, the daemon does not grow. The rate verdicts of
/// `make soak` (release build, 200 subscribers, 60 s) are stricter; the table is printed for both.
@Suite struct SoakTests {
    /// The `| figure | value | spread | budget | verdict | note |` rows, as cells.
    static func rows(_ output: String) -> [[String]] {
        output.split(separator: "\n").map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { $0.count == 8 }
    }

    /// The numbers in `text`, in order.
    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
    }

    @Test func aShortSoakDisconnectsNobodyKeepsEveryRateAndAnswersEveryPost() throws {
        let output = try ChildProcess.run(
            TickerdProcess.binary("tickerd-bench"),
            ["--soak", "--subscribers", "20", "--fps", "30", "--duration", "5", "--post-interval", "10",
             "--tickerd", TickerdProcess.binary("tickerd")],
            timeout: .seconds(120))
        print(output.stdout)
        let rows = Self.rows(output.stdout)
        func row(_ prefix: String) throws -> [String] {
            try #require(rows.first { $0[1].hasPrefix(prefix) }, "no row \(prefix):\n\(output.stdout)\n\(output.stderr)")
        }
        // Frames: "min A, max B /s; asked 30" — never faster than asked, never starved.
        let frames = Self.numbers(try row("Soak frames per subscriber")[3])
        #expect(frames.count >= 3)
        if frames.count >= 3 {
            #expect(frames[1] <= 30 * 1.05 + 0.2, "a subscriber got \(frames[1]) frames/s, asked 30")
            #expect(frames[0] >= 30 * 0.5, "a subscriber got only \(frames[0]) frames/s, asked 30")
        }
        #expect(try row("Soak disconnects")[2] == "0")
        // Posts: "A of B answered, C failed".
        let posts = Self.numbers(try row("Soak Posts")[2])
        #expect(posts.count == 3 && posts[0] == posts[1] && posts[2] == 0, "\(posts)")
        #expect(posts.first ?? 0 >= 100, "only \(posts.first ?? 0) Posts in 5 s")
        if !Sanitizer.distortsMemory {
            #expect(try row("Soak daemon RSS")[5] == "met")
        }
    }
}
