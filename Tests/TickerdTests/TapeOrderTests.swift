import Foundation
import Testing
import TestSupport

/// The order of the active messages on the tape, as a reader of `Text` sees it (docs/rendering.md
/// §6, "Where a post goes"): messages that join the tape together — here those of the
/// configuration file, at start — by priority high to low, then window start (earlier first),
/// then id; a message joining later goes by its priority, and those already on the tape keep
/// their order.
@Suite struct TapeOrderTests {
    @Test func joiningTogetherByPriorityThenWindowStartThenIDLaterByPriority() throws {
        let fixture = try DaemonFixture(config: """
            [[message]]
            id = "low"
            text = "low"
            priority = -1

            [[message]]
            id = "aaa"
            text = "posted at start, no start"

            [[message]]
            id = "zeta"
            text = "zeta"
            start = "@1600000000"

            [[message]]
            id = "alpha"
            text = "alpha"
            start = "@1600000000"

            [[message]]
            id = "zzz"
            text = "earlier start"
            start = "@1599999999"

            [[message]]
            id = "high"
            text = "high"
            priority = 5
            """)
        let joined = "high  •  earlier start  •  alpha  •  zeta  •  posted at start, no start  •  low"
        #expect(try fixture.property("main", "Text").value as? String == joined)
        #expect(try fixture.property("main", "Messages").value as? [String] == ["high", "zzz", "alpha", "zeta", "aaa", "low"])
        // Later posts of other priorities go by priority; the rest keeps its order.
        _ = try fixture.post("highest", options: ["priority", "i", "9"])
        _ = try fixture.post("lowest", options: ["priority", "i", "-5"])
        #expect(try fixture.property("main", "Text").value as? String == "highest  •  \(joined)  •  lowest")
    }
}
