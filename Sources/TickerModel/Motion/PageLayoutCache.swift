import Synchronization

/// The page layouts of one tape by column count, each computed once.
///
/// A layout is a pure function of the tape's clusters and the column count, so remembering it
/// changes no result; it only turns a pages-mode frame from O(n) (laying out the whole content)
/// into O(log p + c). At most ``capacity`` column counts are kept (viewers of a channel use few,
/// and the layout of a very long tape takes megabytes); beyond that the cache starts over.
final class PageLayoutCache: Sendable {
    /// Column counts remembered at most.
    static let capacity = 4

    private let layouts = Mutex<[Int: PageLayout]>([:])
    /// How many layouts were computed (not found) so far, for tests.
    private let computed = Atomic<Int>(0)

    /// The layout of `tape` (whose cache this is) for `columns` cells.
    func layout(of tape: Tape, columns: Int) -> PageLayout {
        if let known = layouts.withLock({ $0[columns] }) { return known }
        let layout = PageLayout(tape: tape, columns: columns)
        computed.add(1, ordering: .relaxed)
        layouts.withLock { layouts in
            if layouts.count >= Self.capacity { layouts.removeAll() }
            layouts[columns] = layout
        }
        return layout
    }

    /// How many layouts were computed rather than found.
    var computations: Int { computed.load(ordering: .relaxed) }
}

extension Tape {
    /// The pages of this tape's content for `columns` cells (columns ≥ 1), computed once.
    func pageLayout(columns: Int) -> PageLayout {
        pageLayouts.layout(of: self, columns: columns)
    }
}
