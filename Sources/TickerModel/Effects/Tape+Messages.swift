extension Tape {
    /// What a counter's field holds in the tape's text: U+2007 FIGURE SPACE, one cell per
    /// character of the field (frames replace it with the number; pages mode does not break
    /// words at it).
    public static let fieldFill: Character = "\u{2007}"

    /// Builds a tape from messages in display order, joined by `separator` and followed by `gap`
    /// (the separator when nil), and records where each message and each counter field lies
    /// (``layout``), so frames can apply effects to them.
    ///
    /// A `{name}` placeholder whose name is set in `counters` becomes the counter's prefix, a field
    /// of ``Counter/fieldWidth(at:)`` cells at `t` (filled with ``fieldFill``) and its suffix; an
    /// unset name stays `{name}`, and `{{`/`}}` become `{`/`}` (``Placeholders``). Build the tape
    /// again when a counter's layout changes (``CounterChange/layoutChanged``) and when a count
    /// ends. No messages give the empty tape.
    public init(messages: [TapeMessage], separator: String, gap: String? = nil, counters: CounterSet = CounterSet(), at t: Instant) {
        guard !messages.isEmpty else {
            self.init(content: "", gap: "")
            return
        }
        var content = ""
        // Room for the texts and separators at once (counter fields may need more).
        content.reserveCapacity(messages.reduce(0) { $0 + $1.text.utf8.count } + separator.utf8.count * messages.count)
        var messageBytes: [Range<Int>] = []
        messageBytes.reserveCapacity(messages.count)
        var fieldBytes: [(name: String, bytes: Range<Int>)] = []
        for (number, message) in messages.enumerated() {
            if number > 0 { content += separator }
            let start = content.utf8.count
            Self.append(message.text, to: &content, counters: counters, at: t, fields: &fieldBytes)
            messageBytes.append(start..<content.utf8.count)
        }
        self.init(content: content, gap: gap ?? separator)
        // The messages lie in order: each search starts where the previous one ended.
        var searchedTo = 0
        var spans: [MessageSpan] = []
        spans.reserveCapacity(messages.count)
        for (message, bytes) in zip(messages, messageBytes) {
            let lower = firstCluster(atOrAfterByte: bytes.lowerBound, from: searchedTo)
            let upper = firstCluster(atOrAfterByte: bytes.upperBound, from: lower)
            searchedTo = upper
            spans.append(MessageSpan(
                key: message.key, clusters: lower..<upper,
                cells: cellStart[lower]..<cellStart[upper], words: words(in: lower..<upper)))
        }
        let fields = fieldBytes.map { FieldSpan(name: $0.name, clusters: clusterRange(bytes: $0.bytes)) }
        layout = TapeLayout(messages: spans, fields: fields)
        self.messageBytes = messageBytes
    }

    /// Appends a message's `text` to `content` as its tape reads it: each `{name}` set in
    /// `counters` as the counter's prefix, field (noted in `fields`, by its bytes in `content`)
    /// and suffix; an unset one as written; `{{` and `}}` as braces.
    static func append(_ text: String, to content: inout String, counters: CounterSet, at t: Instant,
                       fields: inout [(name: String, bytes: Range<Int>)]) {
        // One literal: appended as it is.
        guard Placeholders.hasBraces(text) else {
            content += text
            return
        }
        for part in Placeholders.parse(text) {
            switch part {
            case let .text(literal):
                content += literal
            case let .placeholder(name):
                guard let counter = counters[name] else {
                    content += "{" + name + "}"
                    continue
                }
                content += counter.format.prefix
                let fieldStart = content.utf8.count
                content += String(repeating: fieldFill, count: counter.fieldWidth(at: t))
                fields.append((name, fieldStart..<content.utf8.count))
                content += counter.format.suffix
            }
        }
    }

    /// The clusters that start within the byte range (a cluster that begins before it and runs
    /// into it belongs to what comes before).
    func clusterRange(bytes: Range<Int>) -> Range<Int> {
        firstCluster(atOrAfterByte: bytes.lowerBound)..<firstCluster(atOrAfterByte: bytes.upperBound)
    }

    /// The index of the first cluster starting at byte `byte` or later (``clusterCount`` if none).
    func firstCluster(atOrAfterByte byte: Int) -> Int {
        var low = 0
        var high = byteStart.count - 1
        while low < high {
            let mid = (low + high) / 2
            if byteStart[mid] < byte { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// ``firstCluster(atOrAfterByte:)`` for a byte at or after the start of cluster `start`,
    /// galloping from there: O(log d) for an answer d clusters on.
    func firstCluster(atOrAfterByte byte: Int, from start: Int) -> Int {
        let last = byteStart.count - 1
        var low = min(start, last)
        guard byteStart[low] < byte else { return low }
        // Invariant: byteStart[low] < byte, and the answer lies in (low, high].
        var step = 1
        var high = min(last, low + step)
        while high < last, byteStart[high] < byte {
            low = high
            step *= 2
            high = min(last, low + step)
        }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if byteStart[mid] < byte { low = mid } else { high = mid }
        }
        return high
    }

    /// Maximal runs of clusters other than U+0020 among `clusters`.
    func words(in clusters: Range<Int>) -> Int {
        // ``isSpace(_:)`` cluster by cluster, over the raw buffers (every message of every tape).
        byteStart.withUnsafeBufferPointer { starts in
            bytes.withUnsafeBufferPointer { raw in
                var count = 0
                var inWord = false
                for index in clusters {
                    let start = Int(starts[index])
                    let space = Int(starts[index + 1]) - start == 1 && raw[start] == UInt8(ascii: " ")
                    if !space, !inWord { count += 1 }
                    inWord = !space
                }
                return count
            }
        }
    }
}
