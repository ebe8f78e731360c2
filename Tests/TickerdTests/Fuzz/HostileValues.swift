import DBus
import TestSupport

/// Seeded generators of the values a careless or hostile client sends: odd strings (controls,
/// bidi overrides and marks, line separators, emoji, noncharacters, 1 MB texts), extreme numbers, invalid
/// channel names and calendar expressions, and random values of random D-Bus types.
struct HostileValues {
    /// The generator; every run with the same seed sends the same calls.
    var rng: SeededRandom

    /// Values from the sequence of `seed`.
    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// A random element of `items` (which is never empty at the call sites).
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    /// A random integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    // MARK: Strings

    /// Pieces hostile texts are made of: plain words, every kind of character the rendering rules
    /// treat specially, and scalars no renderer expects (noncharacters, private use, tags).
    static let pieces: [String] = [
        "hello", "Ticker", " ", "  ", "•", "...", "{n}", "{count}", "{", "}", "{{", "}}", "{ n }",
        "\t", "\r", "\n", "\r\n", "\u{01}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9F}",
        "\u{2028}", "\u{2029}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{061C}", "q\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}\u{0306}\u{0307}\u{0308}",
        "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{0301}", "e\u{0301}", "\u{FE0F}", "\u{FE0E}",
        "🚀", "👍🏽", "🇩🇪", "❤️", "👨‍👩‍👧", "🏳️‍🌈", "漢字", "ｆｕｌｌ", "한국어", "각", "नमस्ते", "عربى", "עברית",
        "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{10FFFF}", "\u{E000}", "\u{F8FF}", "\u{F0000}", "\u{E0001}", "\u{E007F}",
        "\u{1F1E6}", "\u{00AD}", "\u{034F}", "\u{115F}", "\u{3000}", "%s%n", "\\", "'", "\"", "$(reboot)",
    ]

    /// A short hostile string (0 to ~12 pieces).
    mutating func shortString() -> String {
        (0..<int(0...12)).map { _ in pick(Self.pieces) }.joined()
    }

    /// A text for Post/Update: usually short and hostile, sometimes exactly at or past the 4096
    /// cluster limit, rarely a full megabyte.
    mutating func text() -> String {
        switch int(0...199) {
        case 0:
            // A megabyte of clusters, or one megabyte-long cluster (a letter and its marks).
            let piece = pick(["x", "漢", "🚀", "e\u{0301}", "\u{0301}"])
            return (piece == "\u{0301}" ? "q" : "") + String(repeating: piece, count: 1 << 20)
        case 1: return String(repeating: "ab ", count: 400_000)
        case 2...5: return String(repeating: pick(["x", "漢", "🚀"]), count: pick([4095, 4096, 4097]))
        case 6...9: return String(repeating: shortString(), count: int(20...200))
        default: return shortString()
        }
    }

    /// A channel name: valid ones (existing and new), and names the rules refuse.
    mutating func channelName() -> String {
        pick([
            "main", "main", "fz0", "fz1", "fz\(int(0...9))", "F_\(int(0...99))", "", String(repeating: "a", count: 64),
            String(repeating: "a", count: 65), "bad/name", "..", "main ", " main", "main\n", "名前", "a-b", "a.b",
            "\u{202E}main", shortString(),
        ])
    }

    /// A message id: the ones posted before, new ones, and ids the rules refuse.
    mutating func messageID(known: [String]) -> String {
        if !known.isEmpty, chance(0.5) { return pick(known) }
        return pick([
            "m1", "m\(int(0...400))", "fuzz\(int(0...50))", "", " ", "a b", String(repeating: "i", count: 128),
            String(repeating: "i", count: 129), "ünï", "\u{7F}", shortString(),
        ])
    }

    /// A calendar expression: valid, invalid and absurd.
    mutating func calendar() -> String {
        pick([
            "daily", "hourly", "minutely", "*-*-* *:*:00", "Mon..Fri 09:00", "*-*-* 21:00 UTC", "*-*-* 21:00 Europe/Berlin",
            "*-02-29 12:00", "*-*-31 00:00", "Sat,Sun *-*-* 10:00/15", "*-*~01 00:00", "2030-01-01", "@1700000000",
            "*-*-* 25:00", "*-13-01", "Mon..Mon..Mon", "*-*-* *:*:*.000001", "*-*-* 00:00 Mars/Olympus", "",
            "1970-01-01 00:00:00 UTC", "9999-12-31 23:59:59", "*-*-* 0/1:0/1:0/1", "yearly ~~~", "\u{202E}daily",
            "*-*-* 00:00 " + String(repeating: "A", count: 300), shortString(),
        ])
    }

    // MARK: Numbers

    /// A double with NaN, infinities, zeros, subnormals and huge values among ordinary ones.
    mutating func double() -> Double {
        pick([
            .nan, -.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, 1e-300, 1e300, 1, 59.999, 60, 60.0001, 61, 0.5, -1, 1e9, 2.5e-7,
            Double(int(-1000...1000)), Double(int(0...100)) / 7,
        ])
    }

    /// An instant or duration in µs: the extremes, around now, and random.
    mutating func int64() -> Int64 {
        let now = DaemonFixture.now()
        return pick([
            .min, .max, .min + 1, .max - 1, 0, -1, 1, now, now + 1_000_000, now - 1_000_000, now + 86_400_000_000,
            Int64(int(0...10_000_000)), Int64.random(in: .min ... .max, using: &rng), 1 << 62, -(1 << 62),
            now + Int64.max / 2,
        ])
    }

    /// A 32-bit signed integer: extremes and small values.
    mutating func int32() -> Int32 { pick([.min, .max, 0, -1, 1, 5, -5, Int32.random(in: .min ... .max, using: &rng)]) }

    /// A 32-bit unsigned integer: extremes and the limits' edges.
    mutating func uint32() -> UInt32 {
        pick([0, 1, 2, 7, 40, 80, 4095, 4096, 4097, 65_536, .max, .max - 1, UInt32(int(0...300))])
    }

    // MARK: D-Bus values of any type

    static let basicTypes: [DBusType] = [
        .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath, .signature,
    ]

    /// A random type, nested up to three levels.
    mutating func type(depth: Int = 0) -> DBusType {
        switch depth >= 3 ? 0 : int(0...8) {
        case 5: return .array(type(depth: depth + 1))
        case 6: return .dictionary(key: pick(Self.basicTypes), value: type(depth: depth + 1))
        case 7: return .structure((0..<int(1...3)).map { _ in type(depth: depth + 1) })
        case 8: return .variant
        default: return pick(Self.basicTypes)
        }
    }

    /// A random value of `type`, with hostile strings and numbers.
    mutating func value(of type: DBusType, depth: Int = 0) -> DBusValue {
        switch type {
        case .byte: return .byte(UInt8.random(in: .min ... .max, using: &rng))
        case .bool: return .bool(chance(0.5))
        case .int16: return .int16(Int16.random(in: .min ... .max, using: &rng))
        case .uint16: return .uint16(UInt16.random(in: .min ... .max, using: &rng))
        case .int32: return .int32(int32())
        case .uint32: return .uint32(uint32())
        case .int64: return .int64(int64())
        case .uint64: return .uint64(UInt64.random(in: .min ... .max, using: &rng))
        case .double: return .double(double())
        case .string: return .string(shortString())
        case .objectPath:
            return .objectPath((try? ObjectPath(pick(["/", "/a", "/io/github/tickerd/Ticker1/channel/main", "/x/y_1"]))) ?? .root)
        case .signature: return .signature((try? Signature(types: [self.type(depth: 1)])) ?? .empty)
        case .unixFD: return .int32(0)
        case .array(let element):
            return .array(element, (0..<int(0...3)).map { _ in value(of: element, depth: depth + 1) })
        case .dictionary(let key, let valueType):
            return .dictionary(key: key, value: valueType, (0..<int(0...3)).map { _ in
                DBusDictEntry(key: value(of: key, depth: depth + 1), value: value(of: valueType, depth: depth + 1))
            })
        case .structure(let fields): return .structure(fields.map { value(of: $0, depth: depth + 1) })
        case .variant:
            return .variant(value(of: depth >= 3 ? .int32 : self.type(depth: depth + 1), depth: depth + 1))
        }
    }

    /// Arguments of a random signature (possibly none).
    mutating func randomArguments() -> [DBusValue] {
        (0..<int(0...4)).map { _ in value(of: type()) }
    }
}
