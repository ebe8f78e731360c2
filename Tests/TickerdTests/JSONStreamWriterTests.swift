import Foundation
import TestSupport
import Testing
@testable import tickerd

/// The journal's JSON writer spells numbers and strings exactly as JSON (and `String(_:)`) do.
@Suite struct JSONStreamWriterTests {
    @Test("strings with quotes, backslashes and control bytes anywhere in the eight-byte steps read back as written")
    func strings() throws {
        let pieces = ["a", "Z", " ", "\"", "\\", "\u{0}", "\u{1}", "\n", "\t", "\u{1F}", "\u{7F}", "/", "~",
                      "ü", "日", "🚀", "plain text", "abcdefgh"]
        var rng = SeededRandom(seed: 0x57)
        var escaped = 0
        for round in 0..<3000 {
            var text = ""
            for _ in 0..<(round % 37) {
                // Mostly plain, so a special byte lands at every offset of a long plain run.
                let piece = Int.random(in: 0..<8, using: &rng) == 0
                    ? pieces[Int.random(in: 3..<12, using: &rng)] : pieces[Int.random(in: 0..<pieces.count, using: &rng)]
                text += piece
            }
            let writer = JSONStreamWriter()
            writer.writeLiteral("[")
            writer.writeString(text)
            writer.writeLiteral("]")
            let decoded = try JSONDecoder().decode([String].self, from: Data(writer.bytes))
            #expect(decoded == [text], "round \(round): \(String(decoding: writer.bytes, as: UTF8.self))")
            if decoded != [text] { return }
            #expect(!writer.bytes.contains { $0 < 0x20 }, "a control byte was written raw")
            if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { escaped += 1 }
        }
        #expect(escaped > 1000)
    }

    @Test("integers of every width and sign, extremes included, are written as their decimal form")
    func integers() {
        var rng = SeededRandom(seed: 0x15)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, Int64.max, Int64.min, Int64.min + 1, 1_800_000_000_000_000]
        for _ in 0..<500 { values.append(Int64(bitPattern: rng.next()) >> Int64.random(in: 0...63, using: &rng)) }
        for value in values {
            let writer = JSONStreamWriter()
            writer.writeInteger(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        for value in [UInt64.max, UInt64(Int64.max) + 1] {
            let writer = JSONStreamWriter()
            writer.writeInteger(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        let writer = JSONStreamWriter()
        writer.writeInteger(UInt32.max)
        writer.writeLiteral(",")
        writer.writeInteger(Int32.min)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "4294967295,-2147483648")
    }
}
