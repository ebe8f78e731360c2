/// The whole state written straight to JSON, as the synthesized `Codable` conformance writes it
/// (`JSONDecoder` reads it back), with the journal records' hand-written writers
/// (`StateChange+JSON.swift`).
/// It writes what `JSONEncoder` would, without the generic machinery; `StateStoreTests` checks
/// both write the same JSON.
extension StateSnapshot: JSONStreamWritable {
    /// Writes this state as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("version"); writer.writeInteger(version)
        object.key("nextSerial"); writer.writeInteger(nextSerial)
        object.key("channels"); try writer.writeArray(channels) { try $0.writeJSON(to: writer) }
        object.key("messages"); try writer.writeArray(messages) { try $0.writeJSON(to: writer) }
        if let journalSequence { object.key("journalSequence"); writer.writeInteger(journalSequence) }
        object.end()
    }
}
