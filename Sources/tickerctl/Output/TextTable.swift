import TickerModel

/// A plain table: columns padded to the widest cell (in terminal cells), two spaces apart.
///
/// Guarantees: every column starts at the same terminal cell on every line, and no line ends in
/// a space (a row whose last cells are empty, or whose last cell ends in spaces, stops at its
/// last other character), so a pager or `diff` shows no trailing whitespace.
struct TextTable {
    /// The header row.
    var header: [String]
    /// The rows.
    var rows: [[String]] = []

    /// The table as lines (the last column is not padded, and trailing spaces are dropped).
    var lines: [String] {
        let all = [header] + rows
        let count = header.count
        var widths = [Int](repeating: 0, count: count)
        for row in all {
            for (index, cell) in row.prefix(count).enumerated() {
                widths[index] = max(widths[index], CellWidth.of(cell))
            }
        }
        return all.map { row in
            var line = ""
            for (index, cell) in row.prefix(count).enumerated() {
                line += cell
                if index < count - 1 {
                    line += String(repeating: " ", count: widths[index] - CellWidth.of(cell) + 2)
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
