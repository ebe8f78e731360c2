/// One cycle of a channel's marquee: the active messages joined by the separator, then the gap
/// (DESIGN §4 "Tape"), cut into extended grapheme clusters with their cell offsets precomputed.
///
/// The clusters are stored as one flat UTF-8 buffer with per-cluster byte and cell offsets, so the
/// cluster under any cell is found by binary search and a frame costs O(log n + c) for n clusters and
/// c columns, whatever the tape's length. The clusters are those of ``text`` as a whole; the
/// *content* is the clusters that start before the gap's bytes.
public struct Tape: Sendable {
    /// The whole cycle: content followed by the gap.
    public let text: String
    /// The gap that follows the content in every cycle (part of ``text``).
    public let gap: String
    /// Cells in one cycle (content and gap).
    public let width: Int
    /// Cells of the content (the text without the gap), the width the "fits" rule compares with.
    public let contentWidth: Int
    /// Number of extended grapheme clusters in one cycle.
    public var clusterCount: Int { cellStart.count - 1 }
    /// Number of clusters that belong to the content.
    public let contentClusterCount: Int

    /// UTF-8 of ``text``.
    let bytes: [UInt8]
    /// Byte offset of each cluster in ``bytes``, plus the total byte count at the end.
    let byteStart: TapeOffsets
    /// Cell offset of each cluster in the cycle, plus ``width`` at the end (non-decreasing).
    let cellStart: TapeOffsets
    /// Where each message and each counter field lies, for tapes built from ``TapeMessage``s
    /// (nil for tapes built from plain strings): what effects apply to.
    public internal(set) var layout: TapeLayout? {
        // A layout set anew is encoded anew; copies made before keep the encoding of theirs.
        didSet { encodedLayouts = EncodedLayoutCache() }
    }
    /// The text form of ``layout``, computed on first use and shared by copies.
    private(set) var encodedLayouts = EncodedLayoutCache()
    /// The bytes of each message in ``bytes``, for a tape built from ``TapeMessage``s here (nil
    /// for other tapes and for layouts read back): where a later tape can be edited from this one
    /// (``init(messages:separator:gap:editing:builtFrom:)``). Not part of the tape's value.
    var messageBytes: [Range<Int>]?
    /// Page layouts (pages mode) by column count, computed on first use and shared by copies
    /// (they derive from the clusters alone, which never change).
    let pageLayouts = PageLayoutCache()

    /// An empty tape: nothing to show.
    public static let empty = Tape(content: "", gap: "")

    /// Builds a tape from its content and gap. Both should already be sanitised
    /// (``TextSanitizer``); any other control character simply counts as one cell.
    ///
    /// The clusters are Swift's `Character`s of `content + gap`, but a printable ASCII byte
    /// followed by another ASCII byte (or the end) is taken as a one-cell cluster without asking
    /// the grapheme breaker: no rule joins two such bytes (the joining rules need a CR before an
    /// LF, or a non-ASCII Extend, SpacingMark, ZWJ or Prepend scalar), and every step starts at a
    /// cluster boundary. Other clusters are read as `Character`s from where they start.
    public init(content: String, gap: String) {
        let text = content + gap
        self.text = text
        self.gap = gap
        let contentBytes = content.utf8.count
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
        // Offsets are kept in 32 bits (TapeOffsets): a cluster holds at least one byte and at most
        // two cells, so no offset of a tape this short reaches 2³². The daemon's limits keep tapes
        // to megabytes.
        precondition(bytes.count < Int(UInt32.max / 2), "a tape of \(bytes.count) bytes")
        // At most one cluster per scalar: the bytes that do not continue a UTF-8 sequence.
        let scalars = bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        var width = 0
        var clusterCount = 0
        var contentClusters = 0
        var contentCells = 0
        var cellStart: TapeOffsets = []
        // Both offset arrays are filled in place (no capacity check per cluster).
        let byteStart = TapeOffsets(unsafeUninitializedCapacity: scalars + 1) { byteOut, byteCount in
            cellStart = TapeOffsets(unsafeUninitializedCapacity: scalars + 1) { cellOut, cellCount in
                bytes.withUnsafeBufferPointer { raw in
                    let count = raw.count
                    var byte = 0
                    var cell = 0
                    var clusters = 0
                    // The last one-scalar cluster seen before printable ASCII (a separator's `•`).
                    var repeated: RepeatedScalar?
                    // The last non-ASCII scalar seen to begin a cluster after printable ASCII (the
                    // `•` after a separator's space): whether a scalar joins the printable ASCII
                    // before it depends on that scalar alone (it joins only as Extend, ZWJ or
                    // SpacingMark), so it is cut there again without asking the breaker.
                    var startsAfterASCII: UInt32?
                    while byte < count {
                        let lead = raw[byte]
                        if lead >= 0x20, lead < 0x7F {
                            // A run of printable ASCII: one cluster and one cell per byte, except
                            // that the last byte may begin a cluster with a combining mark when a
                            // non-ASCII byte follows (that one takes the general path below).
                            var end = byte + 1
                            while end < count, raw[end] >= 0x20, raw[end] < 0x7F { end += 1 }
                            if end < count, raw[end] >= 0x80,
                               startsAfterASCII == nil || RepeatedScalar.packScalar(raw, at: end) != startsAfterASCII {
                                end -= 1
                            }
                            if end > byte {
                                let firstCell = cell
                                for offset in byte..<end {
                                    byteOut[clusters] = UInt32(truncatingIfNeeded: offset)
                                    cellOut[clusters] = UInt32(truncatingIfNeeded: cell)
                                    clusters += 1
                                    cell += 1
                                }
                                let contentEnd = min(end, contentBytes)
                                if contentEnd > byte {
                                    contentClusters += contentEnd - byte
                                    contentCells = firstCell + (contentEnd - byte)
                                }
                                byte = end
                                continue
                            }
                        }
                        let clusterBytes: Int
                        let clusterCells: Int
                        if lead >= 0x20, lead < 0x7F, byte + 1 == count || raw[byte + 1] < 0x80 {
                            clusterBytes = 1
                            clusterCells = 1
                        } else if let known = repeated, known.matches(raw, at: byte) {
                            clusterBytes = known.length
                            clusterCells = known.cells
                        } else {
                            let start = text.utf8.index(text.utf8.startIndex, offsetBy: byte)
                            guard let cluster = text[start...].first else { break }
                            clusterBytes = cluster.utf8.count
                            clusterCells = CellWidth.of(cluster)
                            if clusterBytes == 1, lead >= 0x20, lead < 0x7F, byte + 1 < count, raw[byte + 1] >= 0x80 {
                                startsAfterASCII = RepeatedScalar.packScalar(raw, at: byte + 1)
                            }
                            repeated = RepeatedScalar(raw, at: byte, clusterBytes: clusterBytes, cells: clusterCells) ?? repeated
                        }
                        byteOut[clusters] = UInt32(truncatingIfNeeded: byte)
                        cellOut[clusters] = UInt32(truncatingIfNeeded: cell)
                        clusters += 1
                        cell += clusterCells
                        if byte < contentBytes {
                            contentClusters += 1
                            contentCells = cell
                        }
                        byte += clusterBytes
                    }
                    byteOut[clusters] = UInt32(truncatingIfNeeded: byte)
                    cellOut[clusters] = UInt32(truncatingIfNeeded: cell)
                    clusters += 1
                    width = cell
                    clusterCount = clusters
                }
                cellCount = clusterCount
            }
            byteCount = clusterCount
        }
        self.bytes = bytes
        self.byteStart = byteStart
        self.cellStart = cellStart
        self.width = width
        self.contentWidth = contentCells
        self.contentClusterCount = contentClusters
        self.layout = nil
    }

    /// A tape of `text` (whose last bytes are `gap`) with its clusters given: `bytes` its UTF-8,
    /// `byteStart` and `cellStart` each cluster's offsets plus the totals at the end, of which the
    /// first `contentClusterCount` start before the gap. No layout.
    init(text: String, gap: String, bytes: [UInt8], byteStart: TapeOffsets, cellStart: TapeOffsets, contentClusterCount: Int) {
        self.text = text
        self.gap = gap
        self.bytes = bytes
        self.byteStart = byteStart
        self.cellStart = cellStart
        self.width = cellStart.last ?? 0
        self.contentWidth = cellStart[contentClusterCount]
        self.contentClusterCount = contentClusterCount
        self.layout = nil
    }

    /// Builds a tape from messages in display order, joined by `separator` and followed by `gap`
    /// (the separator when `gap` is nil). No messages give an empty tape.
    public init(messages: [String], separator: String, gap: String? = nil) {
        if messages.isEmpty {
            self.init(content: "", gap: "")
        } else {
            self.init(content: messages.joined(separator: separator), gap: gap ?? separator)
        }
    }

    /// The content: ``text`` without the gap.
    public var content: String {
        String(decoding: bytes[0..<byteStart[contentClusterCount]], as: UTF8.self)
    }

    /// ``text`` without its gap, byte for byte: the messages and separators the tape was built
    /// from as they read (``content`` is the clusters that start before the gap, which reach
    /// into it when the gap begins with a combining mark).
    public var textBeforeGap: String {
        // The gap's bytes begin a scalar: the prefix is a whole string, copied without decoding.
        String(Substring(text.utf8.dropLast(gap.utf8.count)))
    }

    /// The cell width of cluster `index`.
    func cellWidth(ofCluster index: Int) -> Int {
        cellStart[index + 1] - cellStart[index]
    }

    /// The index of the first cluster whose cell offset is at least `cell` (0 ≤ cell ≤ width).
    func firstCluster(atOrAfter cell: Int) -> Int {
        var low = 0
        var high = cellStart.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cellStart[mid] < cell {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return low
    }

    /// The last cluster boundary at or before cell `cell` from boundary `start` on: the largest
    /// `k` in `start...clusterCount` with `cellStart[k] ≤ cell` (needs `cellStart[start] ≤ cell`).
    /// Clusters `start..<k` are the ones that end at or before `cell`, zero-width ones included.
    ///
    /// Every cluster but a zero-width one is at least a cell wide, so the answer lies within
    /// `cell − cellStart[start]` clusters of `start`, plus zero-width clusters right at `cell`
    /// (found by galloping on). O(log c) for a run of c cells, near `start` in memory, whatever
    /// the tape's length.
    func lastBoundary(atOrBefore cell: Int, from start: Int) -> Int {
        let last = clusterCount
        // Invariant: cellStart[low] ≤ cell, and the answer lies in low...high.
        var low = start
        var high = min(last, start + max(0, cell - cellStart[start]))
        if cellStart[high] <= cell {
            low = high
            var step = 1
            while true {
                if low == last { return last }
                let probe = min(last, low + step)
                if cellStart[probe] > cell {
                    high = probe - 1
                    break
                }
                low = probe
                step *= 2
            }
        }
        while low < high {
            let mid = low + (high - low + 1) / 2
            if cellStart[mid] <= cell {
                low = mid
            } else {
                high = mid - 1
            }
        }
        return low
    }

    /// Appends the UTF-8 of cluster `index`.
    func appendCluster(_ index: Int, to out: inout [UInt8]) {
        out.append(contentsOf: bytes[byteStart[index]..<byteStart[index + 1]])
    }

    /// Appends the UTF-8 bytes of the consecutive clusters `run`.
    func appendClusters(_ run: Range<Int>, to out: inout [UInt8]) {
        out.append(contentsOf: bytes[byteStart[run.lowerBound]..<byteStart[run.upperBound]])
    }
}

/// A cluster of one non-ASCII scalar that was seen followed by printable ASCII, so known to end
/// there: no grapheme rule joins printable ASCII to what precedes it save a Prepend scalar, which
/// would have joined it then too. The same scalar followed by printable ASCII again is the same
/// cluster of the same width, found without the grapheme breaker (a tape of 1000 messages holds
/// 1000 separators).
struct RepeatedScalar {
    /// The scalar's UTF-8 bytes, the first in the lowest byte.
    let bytes: UInt32
    /// How many bytes the scalar has (2 to 4).
    let length: Int
    /// Its cells.
    let cells: Int

    /// The cluster of `clusterBytes` bytes at `byte` of `raw` with `cells` cells, when it is one
    /// non-ASCII scalar followed by printable ASCII; nil otherwise.
    init?(_ raw: UnsafeBufferPointer<UInt8>, at byte: Int, clusterBytes: Int, cells: Int) {
        let length = Self.scalarLength(raw[byte])
        guard length > 1, clusterBytes == length, byte + length < raw.count,
              raw[byte + length] >= 0x20, raw[byte + length] < 0x7F else { return nil }
        self.bytes = Self.pack(raw, at: byte, length: length)
        self.length = length
        self.cells = cells
    }

    /// Whether the bytes at `byte` of `raw` are this scalar followed by printable ASCII.
    func matches(_ raw: UnsafeBufferPointer<UInt8>, at byte: Int) -> Bool {
        guard Self.scalarLength(raw[byte]) == length, byte + length < raw.count,
              raw[byte + length] >= 0x20, raw[byte + length] < 0x7F else { return false }
        return Self.pack(raw, at: byte, length: length) == bytes
    }

    /// The length of the UTF-8 sequence `lead` starts (0 for a byte that starts none).
    static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC0..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        case 0xF0..<0xF8: return 4
        default: return 0
        }
    }

    /// The UTF-8 bytes of the scalar that starts at `byte` (``pack(_:at:length:)``); nil when
    /// they do not fit in `raw` or `byte` starts no scalar.
    static func packScalar(_ raw: UnsafeBufferPointer<UInt8>, at byte: Int) -> UInt32? {
        let length = scalarLength(raw[byte])
        guard length > 0, byte + length <= raw.count else { return nil }
        return pack(raw, at: byte, length: length)
    }

    static func pack(_ raw: UnsafeBufferPointer<UInt8>, at byte: Int, length: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<length { value |= UInt32(raw[byte + offset]) << UInt32(8 * offset) }
        return value
    }
}

extension Tape: Equatable {
    /// Two tapes are equal when their text (byte for byte: a text in another normalization form
    /// puts its clusters at other bytes), gap and layout (where messages and counter fields lie)
    /// are equal; everything else derives from them.
    public static func == (lhs: Tape, rhs: Tape) -> Bool {
        lhs.gap == rhs.gap && lhs.bytes.hasSameBytes(as: rhs.bytes) && lhs.layout == rhs.layout
    }
}
