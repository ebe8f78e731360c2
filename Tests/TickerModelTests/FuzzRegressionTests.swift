import Testing
@testable import TickerModel

/// Inputs the libFuzzer targets (Fuzz/, docs/fuzzing.md) found crashing or misbehaving, each
/// kept here so the fix cannot regress without a fuzzer run; their files are in Fuzz/corpus.
@Suite struct FuzzRegressionTests {
    /// `timestamp` target: a year of 402440 overflowed microseconds and trapped (a `start =` in
    /// the configuration or `tickerctl post --start` crashed the process).
    @Test func aTimestampTooFarInTheFutureIsAnErrorNotATrap() {
        for text in ["402440-00010-1", "300000-01-01 00:00 UTC", "999999999-12-31"] {
            #expect(throws: TimestampParseError.self) { _ = try TimestampParser.parse(text, zones: ZoneTable()) }
        }
        #expect {
            _ = try TimestampParser.parse("402440-00010-1", zones: ZoneTable())
        } throws: { error in
            (error as? TimestampParseError)?.reason == "it lies too far in the future to be represented"
        }
        // The largest representable years still parse.
        #expect((try? TimestampParser.parse("9999-12-31 23:59:59 UTC", zones: ZoneTable())) == 253_402_300_799_000_000)
    }

    /// `tzif` target: a local time type with a UT offset of 2^27 s was accepted, so local times
    /// were millions of years off (and far enough offsets overflow the calendar arithmetic).
    @Test func aTZifOffsetBeyondADayIsRefused() {
        var bytes = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
        bytes += header(types: 1, chars: 4)
        bytes += [0, 0, 0, 0, 0, 0] + Array("UTC\0".utf8)  // v1 body: UTC
        bytes += Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
        bytes += header(types: 1, chars: 4)
        bytes += [0x08, 0, 0, 0, 0, 0] + Array("UTC\0".utf8)  // offset 0x08000000 s
        bytes += Array("\nUTC0\n".utf8)
        #expect(throws: TZifError(reason: "UT offset 134217728 s is not between -25 and +26 hours")) {
            _ = try TZifParser.parse(bytes, name: "Bad/Offset")
        }
        // The same file with offset 0 is fine.
        bytes[bytes.count - 16] = 0
        #expect((try? TZifParser.parse(bytes, name: "Good/Offset"))?.utcOffset(atSeconds: 0) == 0)
    }

    /// The POSIX TZ footer of a TZif file had the same hole: any number of hours was an offset.
    @Test func posixOffsetsAndRuleTimesAreBounded() {
        #expect(PosixTimeZone(parsing: "UTC999999999") == nil)
        #expect(PosixTimeZone(parsing: "ABC25") == nil)
        #expect(PosixTimeZone(parsing: "ABC5:60") == nil)
        #expect(PosixTimeZone(parsing: "EST5EDT,M3.2.0/168,M11.1.0") == nil)
        #expect(PosixTimeZone(parsing: "EST5EDT,M3.2.0/167,M11.1.0") != nil)
        #expect(PosixTimeZone(parsing: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0") != nil)
        #expect(PosixTimeZone(parsing: "ABC-24") != nil)
    }

    /// `sanitizer` target: a text starting with U+FE0F fused with the padding space before it
    /// into one 2-cell cluster, so a 2-column frame was 3 cells wide. Edge scalars that join a
    /// neighbour are refused; the same marks inside a text stay.
    @Test func edgeScalarsThatJoinTheTapeAreRefused() {
        for (text, scalar, index) in [("\u{FE0F}n", "\u{FE0F}", 0), ("\u{301}abc", "\u{301}", 0),
                                      ("\u{1F3FB} ok", "\u{1F3FB}", 0), ("total \u{600}", "\u{600}", 6)] as [(String, Unicode.Scalar, Int)] {
            #expect(throws: TextError.joinsAcrossEdge(scalar, atStart: index == 0)) { _ = try TextSanitizer.sanitize(text) }
        }
        for text in ["e\u{301}", "\u{2764}\u{FE0F} ok", "\u{1F44D}\u{1F3FB}", "a\u{200D}"] {
            #expect((try? TextSanitizer.sanitize(text)) == text)
        }
        let tape = Tape(messages: ["\u{2764}\u{FE0F}n"], separator: "  \u{2022}  ")
        let frame = Timeline(tape: tape, settings: ChannelSettings(), at: 0).frame(columns: 2, at: 3_600_000_001)
        #expect(CellWidth.of(frame.text) == 2)
    }

    /// The six counts of a TZif header: isut, isstd, leap, time, type, char.
    private func header(types: UInt8, chars: UInt8) -> [UInt8] {
        [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, types] + [0, 0, 0, chars]
    }
}
