/// The effects part of the published Timeline (docs/rendering.md §12), so a client can compute
/// frames with effects itself: the tapes' layouts (`layout`, `nextLayout`) and the channel's
/// effect state (`effects`), each a string of lines of space-separated tokens.
///
/// ```
/// layout:   m <key> <firstCluster> <endCluster> <firstCell> <endCell> <words>
///           f <name> <firstCluster> <endCluster>
/// effects:  c <name> <from> <to> <start> <duration> <easing> <decimals> <grouping 0|1> <prefix> <suffix>
///           d <key> <start> <stop or ->
///           r <key> <start> <duration> [<stillStart> <stillColumns>]
/// ```
///
/// A reveal line's last two tokens are present when viewers of at least `stillColumns` cells see
/// the message from `stillStart` (a change they show still, docs/rendering.md §11.4).
///
/// Ranges are half-open, in the tape's cycle; instants and durations are µs; numbers are decimal
/// (doubles as Swift prints them, which reads back exactly). Keys, names, prefixes and suffixes
/// are percent-encoded (every byte outside `A-Z a-z 0-9 . _ ~` as `%XX`); an empty string is `-`.
public enum EffectFields {
    /// Timeline key of the current tape's layout.
    public static let layoutKey = "layout"
    /// Timeline key of the pending tape's layout.
    public static let nextLayoutKey = "nextLayout"
    /// Timeline key of the channel's counters and message effects.
    public static let effectsKey = "effects"

    /// The layout as text.
    ///
    /// `relative` writes each range as its distance from the end of the line before's (of the
    /// same kind) and its length, instead of its ends: a message added, moved or removed then
    /// changes its own line (and the next one's distance, at the tape's start), where the absolute
    /// form shifts every line after it.
    /// Only ``layout(from:relative:)`` with `relative` reads that form back.
    public static func encode(_ layout: TapeLayout, relative: Bool = false) -> String {
        // Built as bytes: it is published with every Timeline and stored with every change, and
        // String appends and `String(Int)` cost ~10k instructions a layout (callgrind, 11 messages).
        var text: [UInt8] = []
        text.reserveCapacity(40 * (layout.messages.count + layout.fields.count))
        var (clusterEnd, cellEnd) = (0, 0)
        for span in layout.messages {
            startLine(UInt8(ascii: "m"), span.key, in: &text)
            if relative {
                appendNumber(span.clusters.lowerBound - clusterEnd, to: &text)
                appendNumber(span.clusters.count, to: &text)
                appendNumber(span.cells.lowerBound - cellEnd, to: &text)
                appendNumber(span.cells.count, to: &text)
                (clusterEnd, cellEnd) = (span.clusters.upperBound, span.cells.upperBound)
            } else {
                appendNumber(span.clusters.lowerBound, to: &text)
                appendNumber(span.clusters.upperBound, to: &text)
                appendNumber(span.cells.lowerBound, to: &text)
                appendNumber(span.cells.upperBound, to: &text)
            }
            appendNumber(span.words, to: &text)
        }
        clusterEnd = 0
        for field in layout.fields {
            startLine(UInt8(ascii: "f"), field.name, in: &text)
            if relative {
                appendNumber(field.clusters.lowerBound - clusterEnd, to: &text)
                appendNumber(field.clusters.count, to: &text)
                clusterEnd = field.clusters.upperBound
            } else {
                appendNumber(field.clusters.lowerBound, to: &text)
                appendNumber(field.clusters.upperBound, to: &text)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Starts a line `<kind> <escaped name>`, after a line break unless it is the first.
    private static func startLine(_ kind: UInt8, _ name: String, in text: inout [UInt8]) {
        if !text.isEmpty { text.append(UInt8(ascii: "\n")) }
        text.append(kind)
        text.append(UInt8(ascii: " "))
        appendEscaped(name, to: &text)
    }

    /// Appends a space and `number` in decimal, as `String(number)` writes it.
    private static func appendNumber(_ number: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: " "))
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// A layout read back from ``encode(_:relative:)`` with the same `relative`.
    public static func layout(from text: String, relative: Bool = false) throws(TimelineFieldError) -> TapeLayout {
        var messages: [MessageSpan] = []
        var fields: [FieldSpan] = []
        var (clusterEnd, cellEnd, fieldEnd) = (0, 0, 0)
        for line in text.split(separator: "\n") {
            let tokens = line.split(separator: " ").map(String.init)
            switch tokens.first {
            case "m":
                guard tokens.count == 7, var c0 = Int(tokens[2]), var c1 = Int(tokens[3]), var e0 = Int(tokens[4]),
                    var e1 = Int(tokens[5]), let words = Int(tokens[6]), words >= 0
                else { throw TimelineFieldError("\(layoutKey): bad message line '\(line)'") }
                if relative {
                    // Distances and lengths past any tape's size are refused before they are added.
                    guard [c0, c1, e0, e1].allSatisfy({ $0 >= 0 && $0 < 1 << 40 }) else {
                        throw TimelineFieldError("\(layoutKey): bad message line '\(line)'")
                    }
                    (c0, e0) = (clusterEnd + c0, cellEnd + e0)
                    (c1, e1) = (c0 + c1, e0 + e1)
                    (clusterEnd, cellEnd) = (c1, e1)
                }
                guard c0 <= c1, e0 <= e1 else { throw TimelineFieldError("\(layoutKey): bad message line '\(line)'") }
                messages.append(MessageSpan(key: try unescape(tokens[1]), clusters: c0..<c1, cells: e0..<e1, words: words))
            case "f":
                guard tokens.count == 4, var c0 = Int(tokens[2]), var c1 = Int(tokens[3]) else {
                    throw TimelineFieldError("\(layoutKey): bad field line '\(line)'")
                }
                if relative {
                    guard c0 >= 0, c0 < 1 << 40, c1 >= 0, c1 < 1 << 40 else {
                        throw TimelineFieldError("\(layoutKey): bad field line '\(line)'")
                    }
                    c0 += fieldEnd
                    c1 += c0
                    fieldEnd = c1
                }
                guard c0 <= c1 else { throw TimelineFieldError("\(layoutKey): bad field line '\(line)'") }
                fields.append(FieldSpan(name: try unescape(tokens[1]), clusters: c0..<c1))
            default:
                throw TimelineFieldError("\(layoutKey): unknown line '\(line)'")
            }
        }
        return TapeLayout(messages: messages, fields: fields)
    }

    /// The effect state as text.
    public static func encode(_ state: EffectState) -> String {
        var lines: [String] = []
        for (name, counter) in state.counters.counters.sorted(by: { $0.key < $1.key }) {
            let format = counter.format
            lines.append("c \(escape(name)) \(counter.from) \(counter.to) \(counter.start) \(counter.duration) "
                + "\(counter.easing.rawValue) \(format.decimals) \(format.grouping ? 1 : 0) "
                + "\(escape(format.prefix)) \(escape(format.suffix))")
        }
        for (key, effect) in state.messages.sorted(by: { $0.key < $1.key }) {
            switch effect {
            case let .dots(dots):
                lines.append("d \(escape(key)) \(dots.start) \(dots.stop.map(String.init) ?? "-")")
            case let .reveal(reveal):
                let still = reveal.still.map { " \($0.start) \($0.columns)" } ?? ""
                lines.append("r \(escape(key)) \(reveal.start) \(reveal.duration)\(still)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// An effect state read back from ``encode(_:)-(EffectState)``.
    public static func effects(from text: String) throws(TimelineFieldError) -> EffectState {
        var state = EffectState()
        for line in text.split(separator: "\n") {
            let tokens = line.split(separator: " ").map(String.init)
            do {
                switch tokens.first {
                case "c":
                    guard tokens.count == 11, let from = Double(tokens[2]), let to = Double(tokens[3]),
                        let start = Int64(tokens[4]), let duration = Int64(tokens[5]),
                        let easing = Easing(rawValue: tokens[6]), let decimals = Int(tokens[7]),
                        tokens[8] == "0" || tokens[8] == "1"
                    else { throw TimelineFieldError("\(effectsKey): bad counter line '\(line)'") }
                    let format = try NumberFormat(
                        decimals: decimals, grouping: tokens[8] == "1", prefix: try unescape(tokens[9]),
                        suffix: try unescape(tokens[10]))
                    let counter = try Counter(from: from, to: to, start: start, duration: duration, easing: easing, format: format)
                    state.counters.restore(try unescape(tokens[1]), counter)
                case "d":
                    guard tokens.count == 4, let start = Int64(tokens[2]) else {
                        throw TimelineFieldError("\(effectsKey): bad dots line '\(line)'")
                    }
                    let dots = DotsEffect(start: start)
                    if tokens[3] == "-" {
                        state.messages[try unescape(tokens[1])] = .dots(dots)
                    } else if let stop = Int64(tokens[3]) {
                        state.messages[try unescape(tokens[1])] = .dots(dots.stopping(at: stop))
                    } else {
                        throw TimelineFieldError("\(effectsKey): bad dots line '\(line)'")
                    }
                case "r":
                    guard tokens.count == 4 || tokens.count == 6, let start = Int64(tokens[2]),
                        let duration = Int64(tokens[3])
                    else { throw TimelineFieldError("\(effectsKey): bad reveal line '\(line)'") }
                    var still: RevealEffect.StillStart?
                    if tokens.count == 6 {
                        guard let stillStart = Int64(tokens[4]), let columns = Int(tokens[5]), columns >= 0 else {
                            throw TimelineFieldError("\(effectsKey): bad reveal line '\(line)'")
                        }
                        still = RevealEffect.StillStart(start: stillStart, columns: columns)
                    }
                    state.messages[try unescape(tokens[1])] = .reveal(
                        try RevealEffect(start: start, duration: duration, still: still))
                default:
                    throw TimelineFieldError("\(effectsKey): unknown line '\(line)'")
                }
            } catch let error as TimelineFieldError {
                throw error
            } catch {
                throw TimelineFieldError("\(effectsKey): \(error) in '\(line)'")
            }
        }
        return state
    }

    /// Percent-encodes `text`; the empty string becomes `-`.
    static func escape(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(max(1, text.utf8.count))
        appendEscaped(text, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends ``escape(_:)``'s form of `text` to `bytes`.
    private static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        guard !text.isEmpty else {
            bytes.append(UInt8(ascii: "-"))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
    }

    /// The upper-case hex digit for `value` (0–15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// The text ``escape(_:)`` encoded.
    static func unescape(_ token: String) throws(TimelineFieldError) -> String {
        if token == "-" { return "" }
        var bytes: [UInt8] = []
        var iterator = token.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw TimelineFieldError("bad percent escape in '\(token)'")
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TimelineFieldError("'\(token)' is not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
