@testable import TickerModel

/// Posted text (DESIGN §4 "Text in" and "Stream"). Properties:
/// - accepted text holds no forbidden scalar, no bidi control (Unicode's Bidi_Control) and no
///   tab, CR or LF, has as many scalars as the input (each tab/CR/LF became one space), is within
///   the cluster, byte and cluster-length limits, and is unchanged when sanitised again;
/// - a refusal names the first forbidden scalar at its true index, a true excess of clusters or
///   bytes, or a cluster that truly holds more scalars than allowed, at its true index;
/// - accepted text on a tape renders, in every mode and direction, frames exactly `columns` cells
///   wide with an offset in [0, 1).
enum SanitizerTarget {
    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 4096 else { return }
        let (parameter, text) = input.parameterAndText
        // The parameter's bits pick the limits too: small byte and cluster-length limits are
        // reached by short inputs (a letter and its combining marks).
        let limits = Limits(
            clustersPerMessage: 1 + Int(parameter >> 2), bytesPerMessage: parameter & 1 == 0 ? 4096 : 16 + Int(parameter >> 1),
            scalarsPerCluster: parameter & 2 == 0 ? 32 : 1 + Int(parameter >> 4))
        let scalars = Array(text.unicodeScalars)
        let clean: String
        do {
            clean = try TextSanitizer.sanitize(text, limits: limits)
        } catch let error {
            switch error {
            case let .forbiddenCharacter(scalar, index):
                require(index < scalars.count && scalars[index] == scalar, "'\(text)': refusal names \(scalar) at \(index), which is not there")
                require(TextSanitizer.isForbidden(scalar), "'\(text)': refusal names \(scalar), which is allowed")
                require(!scalars[..<index].contains(where: TextSanitizer.isForbidden), "'\(text)': refusal at \(index) is not the first")
            case let .tooLong(clusters, limit):
                require(clusters > limit && limit == limits.clustersPerMessage, "'\(text)': refused as too long with \(clusters) of \(limit)")
                require(!scalars.contains(where: TextSanitizer.isForbidden), "'\(text)': refused as too long, but holds a forbidden scalar")
            case let .tooManyBytes(bytes, limit):
                require(bytes == text.utf8.count && bytes > limit && limit == limits.bytesPerMessage,
                        "'\(text)': refused as \(bytes) bytes of \(limit)")
            case let .clusterTooLong(length, index, limit):
                require(limit == limits.scalarsPerCluster && length > limit, "'\(text)': refused a cluster of \(length) of \(limit)")
                require(!scalars.contains(where: TextSanitizer.isForbidden), "'\(text)': refused a cluster, but holds a forbidden scalar")
                let spaced = String(String.UnicodeScalarView(scalars.map { $0 == "\t" || $0 == "\r" || $0 == "\n" ? " " : $0 }))
                var start = 0
                var found = false
                for cluster in spaced {
                    let count = cluster.unicodeScalars.count
                    if start == index { found = count == length; break }
                    start += count
                }
                require(found, "'\(text)': no cluster of \(length) scalars starts at \(index)")
            case let .joinsAcrossEdge(scalar, atStart):
                let edge = atStart ? scalars.first : scalars.last
                require(edge == scalar, "'\(text)': refused for \(scalar) at the \(atStart ? "start" : "end"), which is not there")
            }
            return
        }
        let out = Array(clean.unicodeScalars)
        require(out.count == scalars.count, "'\(text)': \(scalars.count) scalars became \(out.count)")
        require(!out.contains { TextSanitizer.isForbidden($0) || $0 == "\t" || $0 == "\r" || $0 == "\n" },
                "'\(text)': sanitised text still holds a control")
        require(!out.contains { $0.properties.isBidiControl }, "'\(text)': sanitised text holds a bidi control")
        require(clean.count <= limits.clustersPerMessage, "'\(text)': \(clean.count) clusters passed a limit of \(limits.clustersPerMessage)")
        require(clean.utf8.count <= limits.bytesPerMessage, "'\(text)': \(clean.utf8.count) bytes passed a limit of \(limits.bytesPerMessage)")
        require(clean.allSatisfy { $0.unicodeScalars.count <= limits.scalarsPerCluster },
                "'\(text)': a cluster passed \(limits.scalarsPerCluster) scalars")
        require((try? TextSanitizer.sanitize(clean, limits: limits)) == clean, "'\(text)': sanitising is not idempotent")
        renderFrames(clean, parameter: parameter)
    }

    /// Renders `text` on a tape at a few widths and instants, checking each frame's width.
    private static func renderFrames(_ text: String, parameter: UInt8) {
        let modes = Mode.allCases
        var settings = ChannelSettings()
        settings.mode = modes[Int(parameter) % modes.count]
        settings.direction = parameter & 0x80 == 0 ? .left : .right
        let tape = Tape(messages: [text], separator: settings.separator, gap: settings.gap)
        let timeline = Timeline(tape: tape, settings: settings, at: 0)
        for columns in [1, 2, 3, 7, 40] {
            for t: Instant in [0, 333_333, 1_000_000, 61_500_000, 3_600_000_001] {
                let frame = timeline.frame(columns: columns, at: t)
                let width = CellWidth.of(frame.text)
                require(width == columns, "'\(text)' in \(settings.mode) at \(t) µs, \(columns) columns: frame '\(frame.text)' is \(width) cells wide")
                require(frame.offset >= 0 && frame.offset < 1, "'\(text)' in \(settings.mode): offset \(frame.offset) is outside [0, 1)")
            }
        }
    }
}
