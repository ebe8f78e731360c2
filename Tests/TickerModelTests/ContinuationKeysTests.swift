import TestSupport
import Testing
@testable import TickerModel

/// The posted message a seamless change continues with is the first (or last) key of the new tape
/// that the old one lacks, as a scan of the whole lists finds it, repeated keys included.
@Suite struct ContinuationKeysTests {
    @Test func agreesWithAWholeScan() {
        var random = SeededRandom(seed: 6)
        for _ in 0..<3000 {
            let alphabet = Int.random(in: 1...12, using: &random)
            func list() -> [String] {
                (0..<Int.random(in: 0...10, using: &random)).map { _ in "k\(Int.random(in: 0..<alphabet, using: &random))" }
            }
            let others = list()
            var keys = others
            if Bool.random(using: &random) { keys = list() } else if !keys.isEmpty {
                keys[Int.random(in: 0..<keys.count, using: &random)] = "k\(Int.random(in: 0..<alphabet + 2, using: &random))"
            }
            let held = Set(others)
            #expect(Timeline.firstIndex(of: keys, notIn: others, fromEnd: false) == keys.firstIndex { !held.contains($0) },
                    "\(keys) vs \(others)")
            #expect(Timeline.firstIndex(of: keys, notIn: others, fromEnd: true) == keys.lastIndex { !held.contains($0) },
                    "\(keys) vs \(others)")
        }
    }
}
