extension Tape {
    /// ``appendPage(_:columns:into:)`` with each cluster written by `writer`.
    func appendPage<Writer: ClusterWriter>(
        _ page: PageLayout.Page, columns: Int, into out: inout [UInt8], writer: inout Writer
    ) -> Int {
        var cells = 0
        for (number, piece) in page.pieces.enumerated() {
            if number > 0 {
                out.append(UInt8(ascii: " "))
                cells += 1
            }
            let pieceCells = cellStart[piece.upperBound] - cellStart[piece.lowerBound]
            if pieceCells > columns - cells {
                let blank = columns - cells
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: blank))
                cells += blank
            } else {
                for index in piece { writer.append(cluster: index, of: self, to: &out) }
                cells += pieceCells
            }
        }
        return cells
    }
}
