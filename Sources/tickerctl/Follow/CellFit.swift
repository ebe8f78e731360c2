import TickerModel

/// Fits text to an exact number of terminal cells, cutting only between grapheme clusters.
enum CellFit {
    /// `text` cut or padded with spaces to exactly `columns` cells: a 2-cell cluster that would
    /// stick out is replaced by one space, zero-width clusters stay with the cell before them.
    static func fit(_ text: String, columns: Int) -> String {
        let limit = max(0, columns)
        var result = ""
        var used = 0
        for cluster in text {
            let width = CellWidth.of(cluster)
            if used + width > limit {
                break
            }
            result.append(cluster)
            used += width
        }
        if used < limit { result += String(repeating: " ", count: limit - used) }
        return result
    }
}
