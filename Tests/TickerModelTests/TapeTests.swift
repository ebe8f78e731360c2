import Testing
@testable import TickerModel

@Suite struct TapeTests {
    @Test("messages are joined by the separator and followed by the gap (default: the separator)")
    func joining() {
        let tape = Tape(messages: ["one", "two"], separator: "  •  ")
        #expect(tape.text == "one  •  two  •  ")
        #expect(tape.content == "one  •  two")
        #expect(tape.width == 16 && tape.contentWidth == 11)
        let gapped = Tape(messages: ["a"], separator: " | ", gap: "   ")
        #expect(gapped.text == "a   " && gapped.contentWidth == 1 && gapped.width == 4)
        #expect(Tape(messages: [], separator: " | ") == Tape.empty)
        #expect(Tape.empty.width == 0)
    }

    @Test("widths and cluster offsets count cells per cluster")
    func offsets() {
        let tape = Tape(content: "a中🇩🇪e\u{301}\u{200B}", gap: "-")
        // a(1) 中(2) 🇩🇪(2) é(1) ZWSP(0) -(1) = 7 cells, 6 clusters.
        #expect(tape.width == 7 && tape.clusterCount == 6 && tape.contentWidth == 6 && tape.contentClusterCount == 5)
        #expect(tape.cellStart == [0, 1, 3, 5, 6, 6, 7])
    }

    @Test("an empty tape shows blanks in every mode")
    func emptyTape() {
        for mode in Mode.allCases {
            let timeline = Timeline(tape: .empty, settings: ChannelSettings(mode: mode), at: 0)
            #expect(timeline.frame(columns: 5, at: 1_000_000).text == "     ")
            #expect(timeline.nextChange(after: 0, columns: 5) == nil)
        }
    }

    @Test("settings are validated with messages naming the setting")
    func settingsValidation() throws {
        #expect(throws: SettingsError.self) { try ChannelSettings(speed: .cellsPerSecond(0)).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(speed: .cellsPerSecond(.nan)).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(speed: .cycleDuration(0)).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(delay: -1).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(separator: "a\u{7}b").validated() }
        #expect(try ChannelSettings(separator: "\t").validated().separator == " ")
        #expect(ChannelSettings(mode: .scroll).effectiveDelay == 2_000_000)
        #expect(ChannelSettings().effectiveDelay == 0)
    }
}
