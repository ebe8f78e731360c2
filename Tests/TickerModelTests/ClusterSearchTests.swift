import TestSupport
import Testing
@testable import TickerModel

/// Searching for a byte's cluster from a known earlier cluster (as a tape's message spans are
/// found, in order) gives what a search of the whole tape gives.
@Suite struct ClusterSearchTests {
    @Test func gallopingFromAnEarlierClusterAgreesWithTheWholeSearch() {
        let tape = Tape(content: "ab 👩‍👩‍👧 é\u{301} 漢字 x • y  🇫🇷z", gap: "  •  ")
        let total = tape.text.utf8.count
        for byte in 0...(total + 1) {
            let answer = tape.firstCluster(atOrAfterByte: byte)
            for start in 0...answer {
                #expect(tape.firstCluster(atOrAfterByte: byte, from: start) == answer, "byte \(byte) from \(start)")
            }
        }
    }
}
