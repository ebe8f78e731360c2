import TestSupport
import Testing
@testable import tickerd

/// The messages that joined and left a tape are those a comparison of the whole lists finds, in
/// tape order, whatever was posted, removed or moved.
@Suite struct TapeMembershipChangeTests {
    /// The answer of whole sets, as the evaluation computed it before.
    static func expected(_ old: [String], _ new: [String]) -> (left: [String], joined: [String]) {
        let (oldSet, newSet) = (Set(old), Set(new))
        return (old.filter { !newSet.contains($0) }, new.filter { !oldSet.contains($0) })
    }

    @Test func agreesWithWholeSetsOnRandomEdits() {
        var random = SeededRandom(seed: 20)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...30, using: &random)
            let old = (0..<count).map { "m\($0)" }
            var new = old
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                switch Int.random(in: 0...2, using: &random) {
                case 0: new.insert("p\(Int.random(in: 0...99, using: &random))", at: Int.random(in: 0...new.count, using: &random))
                case 1: if !new.isEmpty { new.remove(at: Int.random(in: 0..<new.count, using: &random)) }
                default: if new.count > 1 { new.swapAt(Int.random(in: 0..<new.count, using: &random), Int.random(in: 0..<new.count, using: &random)) }
                }
            }
            var seen = Set<String>()
            new = new.filter { seen.insert($0).inserted }
            let change = TapeMembershipChange(from: old, to: new)
            let (left, joined) = Self.expected(old, new)
            #expect(change.left == left, "\(old) → \(new)")
            #expect(change.joined == joined, "\(old) → \(new)")
        }
    }

    @Test func aPostAmongManyIsTheOnlyNewcomer() {
        let old = (0..<1000).map { "a\($0)" }
        var new = old
        new.insert("posted", at: 400)
        let change = TapeMembershipChange(from: old, to: new)
        #expect(change.joined == ["posted"])
        #expect(change.left.isEmpty)
        let back = TapeMembershipChange(from: new, to: old)
        #expect(back.left == ["posted"])
        #expect(back.joined.isEmpty)
    }
}
