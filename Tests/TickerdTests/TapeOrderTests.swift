import Foundation
import Testing
import TestSupport

/// The order of the active messages on the tape, as a reader of `Text` sees it: priority high to
/// low, then window start (earlier first), then id.
@Suite struct TapeOrderTests {
    @Test func priorityThenWindowStartThenID() throws {
        let fixture = try DaemonFixture()
        let start = DaemonFixture.now() - 60_000_000
        _ = try fixture.post("low", options: ["priority", "i", "-1"])
        _ = try fixture.post("posted later, no start", options: ["id", "s", "aaa"])
        _ = try fixture.post("zeta", options: ["id", "s", "zeta", "start", "x", "\(start)"])
        _ = try fixture.post("alpha", options: ["id", "s", "alpha", "start", "x", "\(start)"])
        _ = try fixture.post("earlier start", options: ["id", "s", "zzz", "start", "x", "\(start - 1)"])
        _ = try fixture.post("high", options: ["priority", "i", "5"])
        #expect(try fixture.property("main", "Text").value as? String
            == "high  •  earlier start  •  alpha  •  zeta  •  posted later, no start  •  low")
        let ids = try #require(try fixture.property("main", "Messages").value as? [String])
        #expect(Array(ids[1...3]) == ["zzz", "alpha", "zeta"])
    }
}
