/// An easing curve: maps progress t ∈ [0, 1] to eased progress, continuous, with f(0) = 0 and f(1) = 1.
///
/// The raw values are the stable names used on D-Bus (`easing s`).
public enum Easing: String, Sendable, Hashable, CaseIterable {
    /// f(t) = t.
    case linear
    /// f(t) = t².
    case easeInQuad
    /// f(t) = 1 − (1 − t)².
    case easeOutQuad
    /// f(t) = 2t² for t < ½, else 1 − (2 − 2t)² / 2.
    case easeInOutQuad
    /// f(t) = t³.
    case easeInCubic
    /// f(t) = 1 − (1 − t)³.
    case easeOutCubic
    /// f(t) = 4t³ for t < ½, else 1 − (2 − 2t)³ / 2.
    case easeInOutCubic
    /// f(t) = (1 − 2^(−10t)) / (1 − 2^(−10)): the usual curve, normalised so that f(1) = 1 exactly.
    case easeOutExpo
    /// f(t) = 1 − easeOutBounce(1 − t).
    case easeInBounce
    /// The usual four-arc bounce (n = 7.5625, d = 2.75), ending at 1.
    case easeOutBounce
    /// easeInBounce on the first half and easeOutBounce on the second, each scaled to ½.
    case easeInOutBounce

    /// The eased progress for `t`; `t` is clamped to [0, 1] first.
    public func callAsFunction(_ t: Double) -> Double {
        let t = t.isNaN ? 0 : min(max(t, 0), 1)
        switch self {
        case .linear:
            return t
        case .easeInQuad:
            return t * t
        case .easeOutQuad:
            return 1 - (1 - t) * (1 - t)
        case .easeInOutQuad:
            if t < 0.5 { return 2 * t * t }
            let u = 2 - 2 * t
            return 1 - u * u / 2
        case .easeInCubic:
            return t * t * t
        case .easeOutCubic:
            let u = 1 - t
            return 1 - u * u * u
        case .easeInOutCubic:
            if t < 0.5 { return 4 * t * t * t }
            let u = 2 - 2 * t
            return 1 - u * u * u / 2
        case .easeOutExpo:
            return (1 - Easing.pow2(-10 * t)) / (1 - Easing.pow2(-10))
        case .easeInBounce:
            return 1 - Easing.outBounce(1 - t)
        case .easeOutBounce:
            return Easing.outBounce(t)
        case .easeInOutBounce:
            if t < 0.5 { return (1 - Easing.outBounce(1 - 2 * t)) / 2 }
            return (1 + Easing.outBounce(2 * t - 1)) / 2
        }
    }

    /// True when the curve never goes back (the bounce curves do).
    public var isMonotonic: Bool {
        switch self {
        case .easeInBounce, .easeOutBounce, .easeInOutBounce: return false
        default: return true
        }
    }

    static func outBounce(_ t: Double) -> Double {
        let n = 7.5625
        let d = 2.75
        if t < 1 / d {
            return n * t * t
        } else if t < 2 / d {
            let u = t - 1.5 / d
            return n * u * u + 0.75
        } else if t < 2.5 / d {
            let u = t - 2.25 / d
            return n * u * u + 0.9375
        } else {
            let u = t - 2.625 / d
            return n * u * u + 0.984375
        }
    }

    /// 2^x without Foundation: exp2 through the standard library's floating-point API.
    static func pow2(_ x: Double) -> Double {
        // 2^x = 2^⌊x⌋ · 2^frac, with 2^frac from a short series of e^(frac·ln 2).
        let whole = x.rounded(.down)
        let frac = (x - whole) * 0.6931471805599453
        var term = 1.0
        var sum = 1.0
        for k in 1...20 {
            term *= frac / Double(k)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(whole), significand: 1) * sum
    }
}
