import Foundation
import TestSupport
import Testing

/// `tickerd-bench --smoke` (the daemon-level benchmark harness with tiny sizes) still runs against
/// the real daemon and prints every row of its table. Speed is not asserted: that is what
/// `make bench` is for.
@Suite struct BenchSmokeTests {
    /// The figure each row of the table starts with.
    static let figures = [
        "RSS idle",
        "idle wake-ups in 2 s",
        "daemon CPU, 10 subscribers × 10 fps × 40 columns",
        "Post → MessageStarted seen by a client",
        "Post → PropertiesChanged(Messages) seen by a client",
        "Post → MessageStarted above its floor",
        "Post → its answer (the message stored durably)",
        "Peer.Ping answered through the client's event loop",
        "Frame signals received",
        "start → READY=1",
        "RSS with 1000 scheduled messages",
    ]

    @Test func smokeRunPrintsEveryRow() throws {
        let bench = TickerdProcess.binary("tickerd-bench")
        let output = try ChildProcess.run(
            bench, ["--smoke", "--tickerd", TickerdProcess.binary("tickerd")], timeout: .seconds(180))
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let rows = output.stdout.split(separator: "\n").map { line in
            line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        for figure in Self.figures {
            let row = try #require(rows.first { $0.count > 1 && $0[1].hasPrefix(figure) }, "no row \(figure) in:\n\(output.stdout)")
            // | figure | value | spread | budget | verdict | note |
            #expect(row.count == 8)
            #expect(!row[2].isEmpty)
        }
        // The subscribers really received frames (a harness that measures nothing has rotted).
        let frames = try #require(rows.first { $0.count > 2 && $0[1].hasPrefix("Frame signals received") })
        let rate = Double(frames[2].split(separator: " ").first ?? "") ?? 0
        #expect(rate > 0)
        // The share above the floor is each post's latency minus a positive floor, so its median
        // lies below the latency's own.
        let started = try #require(rows.first { $0.count > 2 && $0[1].hasPrefix("Post → MessageStarted seen") })
        let above = try #require(rows.first { $0.count > 2 && $0[1].hasPrefix("Post → MessageStarted above") })
        let startedP50 = try #require(Self.milliseconds(started[2]), "value: \(started[2])")
        let aboveP50 = try #require(Self.milliseconds(above[2]), "value: \(above[2])")
        #expect(aboveP50 < startedP50)
    }

    /// The number in a value like `p50 0.47 ms` or `p50 +0.21 ms`.
    static func milliseconds(_ value: String) -> Double? {
        let parts = value.split(separator: " ")
        guard parts.count == 3, parts[0] == "p50", parts[2] == "ms" else { return nil }
        return Double(parts[1].replacingOccurrences(of: "+", with: ""))
    }

    /// `--full-limits --smoke` fills a small daemon from its config and prints every row, with
    /// the messages it listed.
    @Test func fullLimitsSmokeRunPrintsEveryRow() throws {
        let output = try ChildProcess.run(
            TickerdProcess.binary("tickerd-bench"), ["--full-limits", "--smoke", "--tickerd", TickerdProcess.binary("tickerd")],
            timeout: .seconds(180))
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let rows = output.stdout.split(separator: "\n").map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        for figure in [
            "full limits: start → READY=1 with 4 × 10 active + 1000 scheduled", "full limits: Post, answered (client side)",
            "full limits: Remove", "floor: append", "full limits: Render", "full limits: Peer.Ping",
            "full limits: Post, answered (same load)", "full limits: RSS",
        ] {
            let row = try #require(rows.first { $0.count > 1 && $0[1].hasPrefix(figure) }, "no row \(figure) in:\n\(output.stdout)")
            #expect(row.count == 8 && !row[2].isEmpty)
        }
        // Both lists answered in full: one channel's 10 + 250 messages, and all 1040.
        let lists = rows.filter { $0.count > 3 && $0[1].hasPrefix("full limits: longest Peer.Ping of another caller during") }
        #expect(lists.count == 2)
        #expect(lists.first?[3].hasSuffix(": 260 entries") == true, "\(lists)")
        #expect(lists.last?[3].hasSuffix(": 1040 entries") == true, "\(lists)")
    }

    @Test func unknownOptionIsAClearError() throws {
        let output = try ChildProcess.run(TickerdProcess.binary("tickerd-bench"), ["--frobnicate", "1"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("unknown option --frobnicate"))
    }
}
