/// The names a client may give a curve: its raw value, or a short name.
extension Easing {
    /// The short names a marquee label gives its curves — `easeIn`, `easeOut` and `easeInOut`
    /// (its default) — and the curves they stand for: the quadratic ones, the closest of the
    /// rules' curves to the usual ease-in/ease-out Béziers. A short name is only an input: the
    /// channel and its Timeline name the curve by its raw value.
    public static let shortNames: [(name: String, curve: Easing)] = [
        ("easeIn", .easeInQuad),
        ("easeOut", .easeOutQuad),
        ("easeInOut", .easeInOutQuad),
    ]

    /// Every name ``init(name:)`` accepts: the raw values, then the short names.
    public static let acceptedNames: [String] = allCases.map(\.rawValue) + shortNames.map(\.name)

    /// The curve called `name` (a raw value or a short name), or nil when no curve is.
    public init?(name: String) {
        if let curve = Easing(rawValue: name) {
            self = curve
        } else if let short = Easing.shortNames.first(where: { $0.name == name }) {
            self = short.curve
        } else {
            return nil
        }
    }
}
