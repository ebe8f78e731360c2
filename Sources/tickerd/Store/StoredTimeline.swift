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

    /// The stored form of `timeline`.
    init(_ timeline: Timeline) {
        fields.reserveCapacity(22)
        timeline.forEachField { key, value in fields.append(Field(key: key, value: StoredTimelineValue(value))) }
    }

    /// The fields as the dictionary `Timeline(fields:)` reads.
    var dictionary: [String: TimelineValue] {
        Dictionary(fields.map { ($0.key, $0.value.value) }, uniquingKeysWith: { _, last in last })
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
