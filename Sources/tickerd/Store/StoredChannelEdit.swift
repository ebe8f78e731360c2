import Glibc

/// A channel as a journal record holds it when its previous form is already stored: the channel
/// with its large values left empty — the long texts of its timeline (the tape and the next tape)
/// and the ids and texts on its tape — and each of those given as an edit of a value of the
/// previous form. A Post to a channel of 1000 messages then records the new message's part of the
/// tape, not the tape.
///
/// ``applied(to:)`` of the previous form gives back exactly the channel the edit was made from.
struct StoredChannelEdit: Codable, Sendable, Equatable {
    /// The channel, its large values empty (texts "" and lists []).
    var channel: StoredChannel
    /// Each large timeline text, by field key, as an edit of a text of the previous form.
    var texts: [String: TextEdit]
    /// The ids on the tape, as an edit of the previous form's.
    var activeIDs: ListEdit
    /// The texts on the tape, as an edit of the previous form's.
    var activeTexts: ListEdit

    /// Timeline texts of at least this many UTF-8 bytes are stored as edits.
    static let largeText = 64

    /// The edit that turns `previous` into `channel` (same name).
    init(_ channel: StoredChannel, after previous: StoredChannel) {
        var small = channel
        var texts: [String: TextEdit] = [:]
        let bases = previous.timeline.strings.filter { $0.text.utf8.count >= Self.largeText }
        for (key, text) in channel.timeline.strings where text.utf8.count >= Self.largeText {
            let best: TextEdit
            // Compared by bytes: what is stored are bytes, and `==` on strings that are not all
            // ASCII compares them by canonical equivalence, scalar by scalar.
            if let same = bases.first(where: { TextEdit.sameBytes($0.text, text) }) {
                // Unchanged (or moved, as `next` becomes `tape`): kept whole, without a byte scan.
                best = TextEdit(keeping: text.utf8.count, of: same.key)
            } else {
                // The base that keeps the most; only its insert is copied out of the text.
                let kept = bases.map { (base: $0.key, ends: TextEdit.keptEnds(of: text, from: $0.text)) }
                    .max { $0.ends.keep + $0.ends.keepEnd < $1.ends.keep + $1.ends.keepEnd }
                guard let kept, kept.ends.keep + kept.ends.keepEnd > 0 else { continue }
                best = TextEdit(text, keeping: kept.ends, of: kept.base)
            }
            texts[key] = best
            small.timeline.setString("", forKey: key)
        }
        small.activeIDs = []
        small.activeTexts = []
        self.channel = small
        self.texts = texts
        activeIDs = ListEdit(channel.activeIDs, from: previous.activeIDs)
        activeTexts = ListEdit(channel.activeTexts, from: previous.activeTexts)
    }

    /// The channel whole, given its `previous` form; nil when the edit does not fit it (a base
    /// text it names is missing or shorter than what it keeps).
    func applied(to previous: StoredChannel) -> StoredChannel? {
        var whole = channel
        let bases = Dictionary(previous.timeline.strings.map { ($0.key, $0.text) }, uniquingKeysWith: { first, _ in first })
        for (key, edit) in texts {
            guard let base = bases[edit.base], let text = edit.applied(to: base) else { return nil }
            whole.timeline.setString(text, forKey: key)
        }
        guard let ids = activeIDs.applied(to: previous.activeIDs),
              let texts = activeTexts.applied(to: previous.activeTexts) else { return nil }
        whole.activeIDs = ids
        whole.activeTexts = texts
        return whole
    }
}

/// A text as an edit of another: the base's first `keep` and last `keepEnd` UTF-8 bytes with
/// `insert` between them (the kept parts end and start on scalar boundaries).
struct TextEdit: Codable, Sendable, Equatable {
    /// The key of the previous form's timeline field the text is edited from.
    var base: String
    /// Bytes kept from the start of the base.
    var keep: Int
    /// Bytes kept from the end of the base.
    var keepEnd: Int
    /// What goes between them.
    var insert: String

    /// The edit that turns `old` (the field `base`) into `new`.
    init(_ new: String, from old: String, base: String) {
        self.init(new, keeping: Self.keptEnds(of: new, from: old), of: base)
    }

    /// The edit that keeps `ends` (``keptEnds(of:from:)`` of `new` and the field `base`).
    init(_ new: String, keeping ends: (keep: Int, keepEnd: Int), of base: String) {
        self.base = base
        (keep, keepEnd) = ends
        // Both ends lie on scalar boundaries: the bytes between are a whole string, copied
        // without decoding them again.
        let utf8 = new.utf8
        insert = String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: keep)..<utf8.index(utf8.endIndex, offsetBy: -keepEnd)]))
    }

    /// How many UTF-8 bytes `new` shares with `old` at its start, and then at its end, each
    /// ending on a scalar boundary (what an edit of `old` into `new` keeps).
    static func keptEnds(of new: String, from old: String) -> (keep: Int, keepEnd: Int) {
        var (new, old) = (new, old)
        return new.withUTF8 { new in
            old.withUTF8 { old in
                let (keep, keepEnd) = CommonEnds.of(new, old)
                var start = keep
                // Both parts kept must leave `insert` whole scalars.
                while start > 0, start < new.count, new[start] & 0xC0 == 0x80 { start -= 1 }
                var end = keepEnd
                while end > 0, new.count - end < new.count, new[new.count - end] & 0xC0 == 0x80 { end -= 1 }
                return (start, min(end, new.count - start))
            }
        }
    }

    /// Whether `a` and `b` hold the same bytes.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// The edit that keeps all `count` bytes of the field `base` (the same text).
    init(keeping count: Int, of base: String) {
        self.base = base
        keep = count
        keepEnd = 0
        insert = ""
    }

    /// The edited text, or nil when `base` is too short for it.
    func applied(to base: String) -> String? {
        let bytes = Array(base.utf8)
        guard keep >= 0, keepEnd >= 0, keep + keepEnd <= bytes.count else { return nil }
        return String(decoding: bytes[..<keep] + Array(insert.utf8) + bytes[(bytes.count - keepEnd)...], as: UTF8.self)
    }
}

/// A list of strings as an edit of another: its first `keep` and last `keepEnd` elements with
/// `insert` between them.
struct ListEdit: Codable, Sendable, Equatable {
    /// Elements kept from the start of the old list.
    var keep: Int
    /// Elements kept from the end of the old list.
    var keepEnd: Int
    /// What goes between them.
    var insert: [String]

    /// The edit that turns `old` into `new`.
    init(_ new: [String], from old: [String]) {
        (keep, keepEnd) = CommonEnds.of(new, old)
        insert = Array(new[keep..<(new.count - keepEnd)])
    }

    /// The edited list, or nil when `old` is too short for it.
    func applied(to old: [String]) -> [String]? {
        guard keep >= 0, keepEnd >= 0, keep + keepEnd <= old.count else { return nil }
        return Array(old[..<keep]) + insert + Array(old[(old.count - keepEnd)...])
    }
}
