import TickerModel

/// A channel's timeline as stored: its fields in ascending key order, as `Timeline.forEachField`
/// gives them, stored as one JSON object (`{"key":value,…}`, the form a dictionary took).
///
/// An array, not a dictionary: the stored form is built for each channel a change touches, and
/// is written in key order without hashing its keys.
struct StoredTimeline: Codable, Sendable, Equatable {
    /// One field.
    struct Field: Sendable, Equatable {
        /// Its key.
        var key: String
        /// Its value.
        var value: StoredTimelineValue
    }

    /// The fields, in ascending key order.
    private(set) var fields: [Field] = []

    /// Where the tapes' layouts are stored, in their relative form (`EffectFields.encode(_:relative:)`),
    /// by the Timeline key they stand for: a message added to a tape of a thousand then changes
    /// one line of the stored layout, which a journal record holds as a small edit, where the
    /// Timeline's form shifts every line after it. Each sorts where its Timeline key does.
    static let relativeLayoutKeys = [
        EffectFields.layoutKey: "layoutRelative", EffectFields.nextLayoutKey: "nextLayoutRelative",
    ]

    /// The stored form of `timeline`.
    init(_ timeline: Timeline) {
        fields.reserveCapacity(22)
        timeline.forEachField(layouts: false) { key, value in fields.append(Field(key: key, value: StoredTimelineValue(value))) }
        let layouts = [
            (Self.relativeLayoutKeys[EffectFields.layoutKey], timeline.tape.encodedRelativeLayout),
            (Self.relativeLayoutKeys[EffectFields.nextLayoutKey], timeline.pending?.tape.encodedRelativeLayout),
        ]
        for case let (key?, text?) in layouts {
            fields.insert(Field(key: key, value: .string(text)), at: fields.firstIndex { $0.key > key } ?? fields.count)
        }
    }

    /// The fields as the dictionary `Timeline(fields:)` reads, the layouts in the Timeline's form
    /// again (a state stored before layouts were stored relative holds that form already).
    var dictionary: [String: TimelineValue] {
        var dictionary = Dictionary(fields.map { ($0.key, $0.value.value) }, uniquingKeysWith: { _, last in last })
        for (key, stored) in Self.relativeLayoutKeys {
            guard case let .string(text)? = dictionary.removeValue(forKey: stored) else { continue }
            // A layout that does not read back is left unreadable, for `Timeline(fields:)` to refuse.
            let layout = try? EffectFields.layout(from: text, relative: true)
            dictionary[key] = .string(layout.map { EffectFields.encode($0) } ?? "?")
        }
        return dictionary
    }

    /// The string-valued fields, in key order.
    var strings: [(key: String, text: String)] {
        fields.compactMap { field in
            if case let .string(text) = field.value { return (field.key, text) }
            return nil
        }
    }

    /// Sets the string-valued field `key` (nothing when there is no such field).
    mutating func setString(_ text: String, forKey key: String) {
        guard let index = fields.firstIndex(where: { $0.key == key }) else { return }
        fields[index].value = .string(text)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads the JSON object; the fields are put in key order.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        fields = try container.allKeys.map { Field(key: $0.stringValue, value: try container.decode(StoredTimelineValue.self, forKey: $0)) }
        fields.sort { $0.key < $1.key }
    }

    /// Writes the JSON object.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for field in fields { try container.encode(field.value, forKey: Key(stringValue: field.key)) }
    }
}
