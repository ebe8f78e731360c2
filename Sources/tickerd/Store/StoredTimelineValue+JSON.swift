/// A channel's stored timeline written straight to JSON: about half of a journal record's
/// encoding time went to these small enum values through the generic `Codable` machinery.
extension StoredTimelineValue {
    /// Writes the JSON the synthesized `Codable` conformance writes and `JSONDecoder` reads back
    /// (`{"string":{"_0":"…"}}`, `{"double":{"_0":1.5}}`, …).
    func writeJSON(to writer: JSONStreamWriter) throws {
        switch self {
        case let .string(text):
            writer.writeLiteral("{\"string\":{\"_0\":")
            writer.writeString(text)
        case let .double(number):
            writer.writeLiteral("{\"double\":{\"_0\":")
            try writer.writeDouble(number)
        case let .int64(number):
            writer.writeLiteral("{\"int64\":{\"_0\":")
            writer.writeInteger(number)
        case let .uint32(number):
            writer.writeLiteral("{\"uint32\":{\"_0\":")
            writer.writeInteger(number)
        }
        writer.writeLiteral("}}")
    }

    /// Writes a whole stored timeline (`{"key":value,…}`).
    static func writeJSON(_ timeline: StoredTimeline, to writer: JSONStreamWriter) throws {
        writer.writeLiteral("{")
        var first = true
        for field in timeline.fields {
            if !first { writer.writeLiteral(",") }
            first = false
            writer.writeString(field.key)
            writer.writeLiteral(":")
            try field.value.writeJSON(to: writer)
        }
        writer.writeLiteral("}")
    }
}
