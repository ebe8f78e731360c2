import TestSupport
import Testing
@testable import tickerd

/// The journal's JSON writer spells numbers and strings exactly as JSON (and `String(_:)`) do.
@Suite struct JSONStreamWriterTests {
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
