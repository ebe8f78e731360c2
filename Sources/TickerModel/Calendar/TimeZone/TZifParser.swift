/// Why TZif bytes could not be read.
public struct TZifError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the data.
    public let reason: String
    /// A description a person can act on.
    public var description: String { "invalid TZif data: \(reason)" }
}

/// Parses TZif files (RFC 8536, versions 1 to 4) into `ZoneRules`, without I/O.
public enum TZifParser {
    /// Parses the bytes of a TZif file; `name` becomes the rules' name.
    public static func parse(_ bytes: [UInt8], name: String) throws(TZifError) -> ZoneRules {
        var reader = ByteReader(bytes)
        let first = try Header.read(&reader)
        guard first.version >= 2 else {
            let body = try Body.read(&reader, header: first, timeSize: 4)
            return try rules(from: body, footer: nil, name: name)
        }
        try reader.skip(first.v1BodySize)
        let second = try Header.read(&reader)
        let body = try Body.read(&reader, header: second, timeSize: 8)
        var footer: PosixTimeZone?
        guard try reader.byte() == 0x0A else { throw TZifError(reason: "footer does not start with a newline") }
        var text: [UInt8] = []
        while true {
            let c = try reader.byte()
            if c == 0x0A { break }
            text.append(c)
        }
        if !text.isEmpty {
            let string = String(decoding: text, as: UTF8.self)
            guard let parsed = PosixTimeZone(parsing: string) else {
                throw TZifError(reason: "footer TZ string '\(string)' is malformed")
            }
            footer = parsed
        }
        return try rules(from: body, footer: footer, name: name)
    }

    private static func rules(from body: Body, footer: PosixTimeZone?, name: String) throws(TZifError) -> ZoneRules {
        ZoneRules(name: name, transitions: body.transitions, transitionTypes: body.transitionTypes,
                  types: body.types, footer: footer, firstAbbreviation: body.firstAbbreviation)
    }

    struct Header {
        let version: Int
        let isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

        static func read(_ reader: inout ByteReader) throws(TZifError) -> Header {
            guard try reader.bytes(4) == Array("TZif".utf8) else { throw TZifError(reason: "missing TZif magic") }
            let versionByte = try reader.byte()
            let version: Int
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2"): version = 2
            case UInt8(ascii: "3"): version = 3
            case UInt8(ascii: "4"): version = 4
            default: throw TZifError(reason: "unknown version byte \(versionByte)")
            }
            try reader.skip(15)
            var counts: [Int] = []
            for _ in 0..<6 { counts.append(Int(try reader.uint32())) }
            let header = Header(version: version, isUTCCount: counts[0], isStandardCount: counts[1],
                                leapCount: counts[2], timeCount: counts[3], typeCount: counts[4],
                                charCount: counts[5])
            guard header.typeCount > 0 else { throw TZifError(reason: "no local time types") }
            return header
        }

        var v1BodySize: Int {
            timeCount * 5 + typeCount * 6 + charCount + leapCount * 8 + isStandardCount + isUTCCount
        }
    }

    /// The UT offsets RFC 8536 allows a local time type (seconds).
    static let validOffsets: ClosedRange<Int64> = -89_999...93_599

    struct Body {
        var transitions: [Int64] = []
        var transitionTypes: [Int] = []
        var types: [LocalTimeType] = []
        var firstAbbreviation = ""

        static func read(_ reader: inout ByteReader, header: Header, timeSize: Int) throws(TZifError) -> Body {
            var body = Body()
            for _ in 0..<header.timeCount {
                body.transitions.append(timeSize == 4 ? Int64(Int32(bitPattern: try reader.uint32())) : try reader.int64())
            }
            for _ in 0..<header.timeCount {
                let index = Int(try reader.byte())
                guard index < header.typeCount else { throw TZifError(reason: "transition type \(index) out of range") }
                body.transitionTypes.append(index)
            }
            var raw: [(Int64, Bool, Int)] = []
            for _ in 0..<header.typeCount {
                let offset = Int64(Int32(bitPattern: try reader.uint32()))
                let isDST = try reader.byte()
                let index = Int(try reader.byte())
                guard isDST <= 1 else { throw TZifError(reason: "daylight flag \(isDST) is not 0 or 1") }
                // RFC 8536 §3.2: more than -25 and less than 26 hours. Larger offsets are no
                // zone on Earth, and would push local times past what the calendar can count.
                guard validOffsets.contains(offset) else {
                    throw TZifError(reason: "UT offset \(offset) s is not between -25 and +26 hours")
                }
                raw.append((offset, isDST == 1, index))
            }
            let chars = try reader.bytes(header.charCount)
            for (offset, isDST, index) in raw {
                guard index < chars.count else { throw TZifError(reason: "abbreviation index out of range") }
                let end = chars[index...].firstIndex(of: 0) ?? chars.count
                body.types.append(LocalTimeType(utcOffset: offset, isDST: isDST,
                                                abbreviation: String(decoding: chars[index..<end], as: UTF8.self)))
            }
            let firstEnd = chars.firstIndex(of: 0) ?? chars.count
            body.firstAbbreviation = String(decoding: chars[0..<firstEnd], as: UTF8.self)
            for i in 1..<max(body.transitions.count, 1) where body.transitions[i] <= body.transitions[i - 1] {
                throw TZifError(reason: "transitions are not in ascending order")
            }
            try reader.skip(header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount)
            return body
        }
    }
}

/// Reads big-endian integers from a byte array, throwing at the end of the data.
struct ByteReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() throws(TZifError) -> UInt8 {
        guard index < bytes.count else { throw TZifError(reason: "data ends early") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bytes(_ count: Int) throws(TZifError) -> [UInt8] {
        guard count >= 0, bytes.count - index >= count else { throw TZifError(reason: "data ends early") }
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    mutating func skip(_ count: Int) throws(TZifError) {
        guard count >= 0, bytes.count - index >= count else { throw TZifError(reason: "data ends early") }
        index += count
    }

    mutating func uint32() throws(TZifError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
        return value
    }

    mutating func int64() throws(TZifError) -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
        return Int64(bitPattern: value)
    }
}
