import Foundation
import Testing
import TestSupport

/// `tickerctl status` against a real daemon: a channel that shows nothing has an empty TEXT cell,
/// and its line used to end in the padding of the column before it, which shows up as trailing
/// whitespace in a pager, a diff or a bug report.
@Suite(.serialized) struct StatusTableTests {
    @Test func noLineEndsInSpacesAndTheColumnsStillAlign() throws {
        let fixture = try CLIFixture(environment: ["TZ": "UTC"])
        _ = try fixture.ok(["post", "Shown now"])
        // A channel holding nothing (empty TEXT), and one whose text is its last cell.
        _ = try fixture.ok(["configure", "quiet", "columns=30"])
        // busctl, independently: the quiet channel's text is empty, main's is not.
        #expect(try fixture.property("Text", channel: "quiet") as? String == "")
        #expect(try fixture.property("Text", channel: "main") as? String != "")

        let text = try fixture.ok(["status"])
        let lines = text.split(separator: "\n").map(String.init)
        for line in lines {
            #expect(!line.hasSuffix(" "), "a line ends in spaces: \(line.debugDescription)")
        }
        let header = try #require(lines.first { $0.hasPrefix("CHANNEL ") }, "\(text)")
        let rows = StatusScheduleTests.rows(text)
        #expect(rows["quiet"]?["STATE"] == "empty" && rows["quiet"]?["TEXT"] == "", "\(text)")
        #expect(rows["main"]?["STATE"] == "running" && rows["main"]?["TEXT"]?.contains("Shown now") == true, "\(text)")

        // Every column starts at the header's column on every row: the cell begins there, after a space.
        let headerCells = Array(header)
        let starts = headerCells.indices.filter { $0 > 0 && headerCells[$0] != " " && headerCells[$0 - 1] == " " }
        let tableRows = lines.drop { !$0.hasPrefix("CHANNEL ") }.dropFirst()
        #expect(tableRows.count == 2, "\(text)")
        for row in tableRows {
            let cells = Array(row)
            for start in starts where start < cells.count {
                #expect(cells[start] != " " && cells[start - 1] == " ", "column at \(start) misaligned in \(row.debugDescription)")
            }
        }
        // The quiet row stops at its last cell (FPS), the one with text reaches the TEXT column.
        let textColumn = try #require(starts.last)
        let quietRow = try #require(tableRows.first { $0.hasPrefix("quiet ") })
        let mainRow = try #require(tableRows.first { $0.hasPrefix("main ") })
        #expect(quietRow.count < textColumn && mainRow.count > textColumn, "\(text)")
    }
}
