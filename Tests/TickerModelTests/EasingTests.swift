import Testing
@testable import TickerModel

@Suite struct EasingTests {
    /// Values worked out by hand from the formulas in Easing.swift.
    static let golden: [(Easing, [(Double, Double)])] = [
        (.linear, [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)]),
        // t²
        (.easeInQuad, [(0.25, 0.0625), (0.5, 0.25), (0.75, 0.5625)]),
        // 1 − (1 − t)²: 1 − 0.5625, 1 − 0.25, 1 − 0.0625
        (.easeOutQuad, [(0.25, 0.4375), (0.5, 0.75), (0.75, 0.9375)]),
        // 2t² = 0.125; at ½: 1 − 1²/2; at ¾: 1 − 0.5²/2
        (.easeInOutQuad, [(0.25, 0.125), (0.5, 0.5), (0.75, 0.875)]),
        // t³
        (.easeInCubic, [(0.25, 0.015625), (0.5, 0.125), (0.75, 0.421875)]),
        // 1 − (1 − t)³
        (.easeOutCubic, [(0.25, 0.578125), (0.5, 0.875), (0.75, 0.984375)]),
        // 4t³ = 0.0625; at ½: 1 − 1/2; at ¾: 1 − 0.5³/2
        (.easeInOutCubic, [(0.25, 0.0625), (0.5, 0.5), (0.75, 0.9375)]),
        // (1 − 2^(−10t)) / (1 − 2^(−10)): t = 0.1 → (1/2)/(1023/1024) = 512/1023; t = ½ → (31/32)/(1023/1024) = 992/1023
        (.easeOutExpo, [(0.1, 512.0 / 1023), (0.5, 992.0 / 1023)]),
        // 7.5625t² at ¼ = 0.47265625; at ½: 7.5625(½ − 1.5/2.75)² + 0.75 = 0.015625 + 0.75; at 1/2.75: 1
        (.easeOutBounce, [(0.25, 0.47265625), (0.5, 0.765625), (1 / 2.75, 1)]),
        // 1 − outBounce(1 − t): at ½: 1 − 0.765625; at ¾: 1 − 0.47265625
        (.easeInBounce, [(0.5, 0.234375), (0.75, 0.52734375)]),
        // ¼: (1 − outBounce(½))/2; ¾: (1 + outBounce(½))/2; ½: (1 + outBounce(0))/2
        (.easeInOutBounce, [(0.25, 0.1171875), (0.5, 0.5), (0.75, 0.8828125)]),
    ]

    @Test("every curve matches hand-worked values", arguments: golden.map(\.0))
    func goldenValues(_ easing: Easing) throws {
        let points = try #require(Self.golden.first { $0.0 == easing }).1
        for (t, expected) in points {
            #expect(abs(easing(t) - expected) < 1e-12, "\(easing)(\(t)) = \(easing(t)), expected \(expected)")
        }
    }

    @Test("every curve starts at 0, ends at 1, stays in range and is continuous", arguments: Easing.allCases)
    func shape(_ easing: Easing) {
        #expect(easing(0) == 0)
        #expect(abs(easing(1) - 1) < 1e-12)
        // Out of range input is clamped.
        #expect(easing(-3) == 0)
        #expect(abs(easing(7) - 1) < 1e-12)
        let steps = 100_000
        var previous = easing(0)
        for i in 1...steps {
            let value = easing(Double(i) / Double(steps))
            // The steepest curve (easeOutExpo at 0) has slope 10·ln 2 / (1 − 2⁻¹⁰) ≈ 6.94.
            #expect(abs(value - previous) <= 8.0 / Double(steps), "\(easing) jumps at \(i)")
            #expect(value >= -1e-12 && value <= 1 + 1e-12)
            if easing.isMonotonic { #expect(value >= previous - 1e-15) }
            previous = value
        }
    }

    @Test("names are the stable D-Bus strings")
    func names() {
        #expect(Easing(rawValue: "easeInOutBounce") == .easeInOutBounce)
        #expect(Easing(rawValue: "linear") == .linear)
        #expect(Easing.allCases.count == 11)
    }

    @Test("a marquee label's names easeIn, easeOut and easeInOut are accepted for the quadratic curves")
    func shortNames() {
        #expect(Easing(name: "easeIn") == .easeInQuad)
        #expect(Easing(name: "easeOut") == .easeOutQuad)
        #expect(Easing(name: "easeInOut") == .easeInOutQuad)
        for curve in Easing.allCases { #expect(Easing(name: curve.rawValue) == curve) }
        #expect(Easing(name: "easeinout") == nil)
        #expect(Easing(name: "wobbly") == nil)
        #expect(Easing.acceptedNames.count == 14)
        #expect(Set(Easing.acceptedNames).count == Easing.acceptedNames.count)
    }
}
