/// How many terminal cells an extended grapheme cluster takes (DESIGN §4 "Cells").
///
/// - 0 when every scalar of the cluster is zero-width (General_Category Mn, Me, Cf, or a conjoining
///   Hangul vowel/final);
/// - 2 when its base scalar (the first scalar that is not zero-width) is East Asian Wide or
///   Fullwidth or has Emoji_Presentation, or when the cluster holds U+FE0F (VS16), or two regional
///   indicators (a flag);
/// - 1 otherwise.
public enum CellWidth {
    /// The cell width (0, 1 or 2) of one extended grapheme cluster.
    public static func of(_ cluster: Character) -> Int {
        let scalars = cluster.unicodeScalars
        // Fast path: one printable ASCII scalar.
        if let first = scalars.first, first.value >= 0x20, first.value < 0x7F,
           scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return 1
        }
        var base: Unicode.Scalar?
        var regionalIndicators = 0
        for scalar in scalars {
            let value = scalar.value
            if value == 0xFE0F { return base == nil ? 0 : 2 }
            if value >= 0x1F1E6, value <= 0x1F1FF { regionalIndicators += 1 }
            if base == nil, !isZeroWidth(scalar) { base = scalar }
        }
        guard let base else { return 0 }
        if regionalIndicators >= 2 || isWide(base) { return 2 }
        return 1
    }

    /// The total cell width of a string, cluster by cluster.
    public static func of(_ text: String) -> Int {
        var total = 0
        for cluster in text { total += of(cluster) }
        return total
    }

    /// True when the scalar is East Asian Wide/Fullwidth or has Emoji_Presentation.
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        return contains(WidthTables.wide, value)
    }

    /// True when the scalar takes no cell (Mn, Me, Cf, conjoining Hangul vowel/final).
    public static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0xAD { return false }
        return contains(WidthTables.zeroWidth, value)
    }

    /// Binary search in a flattened table of inclusive ranges [lo0, hi0, lo1, hi1, ...].
    static func contains(_ table: [UInt32], _ value: UInt32) -> Bool {
        var low = 0
        var high = table.count / 2
        while low < high {
            let mid = (low + high) / 2
            if table[2 * mid + 1] < value {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return low < table.count / 2 && table[2 * low] <= value
    }
}
