/// What a viewer of c columns sees at one instant (the D-Bus `(s text, d offset, a{sv} extras)`).
public struct Frame: Sendable, Hashable {
    /// Exactly c cells of text.
    public var text: String
    /// Sub-cell offset in [0, 1): pixel clients shift the text left by offset × cell width.
    public var offset: Double
    /// Values for pixel clients (see ``FrameExtras``).
    public var extras: FrameExtras

    /// Creates a frame.
    public init(text: String, offset: Double, extras: FrameExtras) {
        self.text = text
        self.offset = offset
        self.extras = extras
    }
}

/// Per-frame values beyond the text, published as the `a{sv}` extras of a frame.
///
/// Effects (counters, dots, reveal) add their own values here; each has a stable key.
public struct FrameExtras: Sendable, Hashable {
    /// Progress through the motion, key `cycle`: in continuous and scroll mode the stream position
    /// divided by the tape width (unbounded: 2.5 means two and a half tape widths travelled from the
    /// tape's origin); in bounce mode the fraction of the overflow travelled, in [0, 1]; in pages
    /// mode elapsed time divided by the duration of all pages; 0 for still text.
    public var cycle: Double
    /// Key `dots`: the heights of the three jumping dots, 0 (resting) to 1 (a quarter of the
    /// line up), of the first message with the dots effect that the frame shows; nil when none.
    public var dots: [Double]?
    /// Key `reveal`: the reveal progress in [0, 1] of the first revealing message the frame
    /// shows; nil when none.
    public var reveal: Double?
    /// Key `reveal-words`: per word of that message, its stroke progress (every word strokes
    /// together, so each equals ``reveal``); nil when ``reveal`` is.
    public var revealWords: [Double]?

    /// Creates extras.
    public init(cycle: Double = 0, dots: [Double]? = nil, reveal: Double? = nil, revealWords: [Double]? = nil) {
        self.cycle = cycle
        self.dots = dots
        self.reveal = reveal
        self.revealWords = revealWords
    }

    /// The key of ``cycle`` in the D-Bus extras dictionary.
    public static let cycleKey = "cycle"
    /// The key of ``dots`` (`ad`).
    public static let dotsKey = "dots"
    /// The key of ``reveal`` (`d`).
    public static let revealKey = "reveal"
    /// The key of ``revealWords`` (`ad`).
    public static let revealWordsKey = "reveal-words"
}
