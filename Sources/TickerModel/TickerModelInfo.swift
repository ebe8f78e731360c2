/// Facts about the model that clients may want to check.
public enum TickerModelInfo {
    /// Version of the published rendering rules (`docs/rendering.md`); bumped when a frame could change.
    public static let rulesVersion = 3
}
