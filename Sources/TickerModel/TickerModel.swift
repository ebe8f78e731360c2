/// The pure ticker model: no I/O, no clocks, value types and functions.
public enum TickerModelInfo {
    /// Version of the model's published rendering rules.
    public static let rulesVersion = 1
}
