/// Reduced-motion pages: the content word-wrapped into lines of c cells, each shown still for its
/// reading time (200 words a minute, at least 2 s), one after the other, repeating.
///
/// Words are maximal runs of clusters other than U+0020. A page holds as many words as fit, one
/// space between two words; a word wider than c is cut at cluster boundaries into pieces of at most
/// c cells, each piece counting as one word (a cluster wider than c alone shows as spaces).
/// Laying out costs O(n) in the content's clusters; each tape remembers its layouts by column
/// count (``PageLayoutCache``), so a frame costs O(log p + c) once its layout is known.
struct PageLayout: Sendable {
    /// One page: the clusters shown (as runs of cluster ranges) and its word count.
    struct Page: Sendable {
        var pieces: [Range<Int>] = []
        var cells = 0
        var words = 0
    }

    /// Reading time per word at 200 words a minute.
    static let perWord: Int64 = 300_000
    /// Shortest time a page is shown.
    static let minimumPage: Int64 = 2 * microsecondsPerSecond

    let pages: [Page]
    /// When each page's showing ends, from the start of a cycle (cumulative durations).
    let ends: [Int64]

    /// Lays out the content of `tape` for `columns` cells (columns ≥ 1).
    init(tape: Tape, columns: Int) {
        var pages: [Page] = []
        var page = Page()
        func place(_ word: Range<Int>, cells: Int) {
            let needed = page.words == 0 ? cells : page.cells + 1 + cells
            if page.words > 0, needed > columns {
                pages.append(page)
                page = Page()
            }
            page.cells = page.words == 0 ? cells : page.cells + 1 + cells
            page.pieces.append(word)
            page.words += 1
        }
        var index = 0
        let end = tape.contentClusterCount
        while index < end {
            if tape.isSpace(index) {
                index += 1
                continue
            }
            // One word: split into pieces of at most `columns` cells.
            var pieceStart = index
            var pieceCells = 0
            while index < end, !tape.isSpace(index) {
                let w = tape.cellWidth(ofCluster: index)
                if pieceCells + w > columns, index > pieceStart {
                    place(pieceStart..<index, cells: min(pieceCells, columns))
                    pieceStart = index
                    pieceCells = 0
                }
                pieceCells += w
                index += 1
            }
            place(pieceStart..<index, cells: min(pieceCells, columns))
        }
        if page.words > 0 || pages.isEmpty { pages.append(page) }
        self.pages = pages
        var ends: [Int64] = []
        ends.reserveCapacity(pages.count)
        var total: Int64 = 0
        for page in pages {
            total += max(PageLayout.minimumPage, Int64(page.words) * PageLayout.perWord)
            ends.append(total)
        }
        self.ends = ends
    }

    /// How long page `index` is shown.
    func duration(ofPage index: Int) -> Int64 {
        max(PageLayout.minimumPage, Int64(pages[index].words) * PageLayout.perWord)
    }

    /// Time to show every page once.
    var cycleDuration: Int64 { ends.last ?? 0 }

    /// The page shown `offset` into a cycle (0 ≤ offset < ``cycleDuration``): the first whose
    /// showing ends after it, found by binary search.
    func page(atCycleOffset offset: Int64) -> Int {
        var low = 0
        var high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] > offset { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension Tape {
    /// True when cluster `index` is a single U+0020.
    func isSpace(_ index: Int) -> Bool {
        byteStart[index + 1] - byteStart[index] == 1 && bytes[byteStart[index]] == UInt8(ascii: " ")
    }

    /// Appends one page: its pieces separated by single spaces; a piece wider than the page
    /// (a lone cluster wider than c) shows as spaces. Returns the cells written.
    func appendPage(_ page: PageLayout.Page, columns: Int, into out: inout [UInt8]) -> Int {
        var writer = PlainClusterWriter()
        return appendPage(page, columns: columns, into: &out, writer: &writer)
    }
}
