import TestSupport
import Testing
@testable import tickerd

/// The journal's checksum is the standard CRC-32, whatever the length and alignment of the bytes.
@Suite struct CRC32Tests {
    /// The textbook byte-at-a-time CRC-32 (reflected polynomial 0xEDB88320).
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test("the check value of \"123456789\" is 0xCBF43926, as zlib gives")
    func checkValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test("every length and starting offset agrees with the byte-at-a-time reference")
    func agreesWithTheReference() {
        var rng = SeededRandom(seed: 0xC3C3)
        let pool = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for length in 0..<80 {
            for offset in 0..<9 {
                let bytes = Array(pool[offset..<(offset + length)])
                let slice = pool[offset..<(offset + length)]
                #expect(slice.withUnsafeBytes { CRC32.checksum($0) } == Self.reference(bytes))
            }
        }
        for _ in 0..<50 {
            let length = Int.random(in: 0...4000, using: &rng)
            let bytes = Array(pool[0..<length])
            #expect(CRC32.checksum(bytes) == Self.reference(bytes))
        }
    }
}
