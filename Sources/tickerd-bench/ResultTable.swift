/// One line of the result table.
struct ResultRow {
    /// What was measured.
    let figure: String
    /// The headline value (a median, a total or a rate).
    let value: String
    /// The spread or the other figures behind the value.
    let spread: String
    /// The budget from issue 9.
    let budget: String
    /// Whether the budget was met (nil: no verdict, e.g. a smoke run).
    let met: Bool?
    /// What else is worth knowing (which threads woke, the other process's CPU).
    let note: String
}

/// Prints the rows as one Markdown table.
enum ResultTable {
    /// The table's text; without `verdicts` (a smoke run's tiny sizes) the verdict column says "—".
    static func render(_ rows: [ResultRow], verdicts: Bool = true) -> String {
        let header = ["figure", "value", "spread / detail", "budget", "verdict", "note"]
        let cells = rows.map { row in
            [row.figure, row.value, row.spread, row.budget, (verdicts ? row.met : nil).map { $0 ? "met" : "MISSED" } ?? "—", row.note]
        }
        let widths = header.indices.map { column in
            ([header[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ values: [String]) -> String {
            "| " + zip(values, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + cells.map(line)).joined(separator: "\n")
    }
}
