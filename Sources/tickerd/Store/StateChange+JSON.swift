import TickerModel

/// A journal record written straight to JSON, as the synthesized `Codable` conformances write it
/// (`JSONDecoder` reads it back; `nil` optionals are left out, enums with values are
/// `{"case":{"label":value}}`), without the generic `Codable` machinery; `StateStoreTests`
/// checks both write the same JSON.
extension StateChange: JSONStreamWritable {
    /// Writes this record as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("sequence"); writer.writeInteger(sequence)
        object.key("nextSerial"); writer.writeInteger(nextSerial)
        object.key("channels"); try writer.writeArray(channels) { try $0.writeJSON(to: writer) }
        if let channelEdits {
            object.key("channelEdits"); try writer.writeArray(channelEdits) { try $0.writeJSON(to: writer) }
        }
        object.key("removedChannels"); writer.writeArray(removedChannels) { writer.writeString($0) }
        object.key("messages"); try writer.writeArray(messages) { try $0.writeJSON(to: writer) }
        object.key("removedMessages"); writer.writeArray(removedMessages) { writer.writeString($0) }
        object.end()
    }
}

extension StoredChannel {
    /// Writes this channel as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("name"); writer.writeString(name)
        object.key("settings"); try settings.writeJSON(to: writer)
        object.key("columns"); writer.writeInteger(columns)
        object.key("frameRate"); try writer.writeDouble(frameRate)
        object.key("timeline"); try StoredTimelineValue.writeJSON(timeline, to: writer)
        object.key("activeIDs"); writer.writeArray(activeIDs) { writer.writeString($0) }
        object.key("activeTexts"); writer.writeArray(activeTexts) { writer.writeString($0) }
        if let configDigest { object.key("configDigest"); writer.writeString(configDigest) }
        if let counters {
            object.key("counters")
            try writer.writeObject(counters) { try $0.writeJSON(to: writer) }
        }
        if let effects {
            object.key("effects")
            try writer.writeObject(effects) { try $0.writeJSON(to: writer) }
        }
        object.end()
    }
}

extension StoredChannelEdit {
    /// Writes this edit as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("channel"); try channel.writeJSON(to: writer)
        object.key("texts")
        writer.writeObject(texts) { edit in
            var fields = JSONObjectFields(writer)
            fields.key("base"); writer.writeString(edit.base)
            fields.key("keep"); writer.writeInteger(edit.keep)
            fields.key("keepEnd"); writer.writeInteger(edit.keepEnd)
            fields.key("insert"); writer.writeString(edit.insert)
            fields.end()
        }
        object.key("activeIDs"); activeIDs.writeJSON(to: writer)
        object.key("activeTexts"); activeTexts.writeJSON(to: writer)
        object.end()
    }
}

extension ListEdit {
    /// Writes this edit as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) {
        var object = JSONObjectFields(writer)
        object.key("keep"); writer.writeInteger(keep)
        object.key("keepEnd"); writer.writeInteger(keepEnd)
        object.key("insert"); writer.writeArray(insert) { writer.writeString($0) }
        object.end()
    }
}

extension StoredSettings {
    /// Writes these settings as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("mode"); writer.writeString(mode)
        if let speed { object.key("speed"); try writer.writeDouble(speed) }
        if let cycle { object.key("cycle"); writer.writeInteger(cycle) }
        if let delay { object.key("delay"); writer.writeInteger(delay) }
        object.key("easing"); writer.writeString(easing)
        object.key("loops"); writer.writeInteger(loops)
        object.key("direction"); writer.writeString(direction)
        object.key("align"); writer.writeString(align)
        object.key("separator"); writer.writeString(separator)
        if let gap { object.key("gap"); writer.writeString(gap) }
        if let phase { object.key("phase"); writer.writeString(phase) }
        object.end()
    }
}

extension StoredCounter {
    /// Writes this counter as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("from"); try writer.writeDouble(from)
        object.key("to"); try writer.writeDouble(to)
        object.key("start"); writer.writeInteger(start)
        object.key("duration"); writer.writeInteger(duration)
        object.key("easing"); writer.writeString(easing)
        object.key("decimals"); writer.writeInteger(decimals)
        object.key("grouping"); writer.writeRaw(grouping ? "true" : "false")
        object.key("prefix"); writer.writeString(prefix)
        object.key("suffix"); writer.writeString(suffix)
        object.end()
    }
}

extension StoredEffect {
    /// Writes this effect as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("kind"); writer.writeString(kind.rawValue)
        object.key("start"); writer.writeInteger(start)
        if let duration { object.key("duration"); writer.writeInteger(duration) }
        if let stop { object.key("stop"); writer.writeInteger(stop) }
        if let stillStart { object.key("stillStart"); writer.writeInteger(stillStart) }
        if let stillColumns { object.key("stillColumns"); writer.writeInteger(stillColumns) }
        object.end()
    }
}

extension MessageRecord {
    /// Writes this message as one JSON object.
    func writeJSON(to writer: JSONStreamWriter) throws {
        var object = JSONObjectFields(writer)
        object.key("id"); writer.writeString(id)
        object.key("channel"); writer.writeString(channel)
        object.key("text"); writer.writeString(text)
        object.key("priority"); writer.writeInteger(priority)
        object.key("urgent"); writer.writeRaw(urgent ? "true" : "false")
        object.key("window"); window.writeJSON(to: writer)
        object.key("postedAt"); writer.writeInteger(postedAt)
        if let effect { object.key("effect"); writer.writeString(effect.rawValue) }
        if let reveal { object.key("reveal"); writer.writeInteger(reveal) }
        object.key("origin"); writer.writeString(origin.rawValue)
        if let link { object.key("link"); writer.writeString(link) }
        object.end()
    }
}

extension MessageWindow {
    /// Writes this window as the synthesized conformance does: `{"case":{"label":value,…}}`.
    func writeJSON(to writer: JSONStreamWriter) {
        switch self {
        case .always:
            writer.writeLiteral("{\"always\":{}}")
            return
        case let .absolute(start, end):
            writer.writeLiteral("{\"absolute\":")
            var object = JSONObjectFields(writer)
            if let start { object.key("start"); writer.writeInteger(start) }
            if let end { object.key("end"); writer.writeInteger(end) }
            object.end()
        case let .timeToLive(microseconds):
            writer.writeLiteral("{\"timeToLive\":{\"microseconds\":")
            writer.writeInteger(microseconds)
            writer.writeLiteral("}")
        case let .recurring(calendar, duration):
            writer.writeLiteral("{\"recurring\":{\"calendar\":")
            writer.writeString(calendar)
            writer.writeLiteral(",\"duration\":")
            writer.writeInteger(duration)
            writer.writeLiteral("}")
        }
        writer.writeLiteral("}")
    }
}

/// Writes the members of one JSON object: `{`, then `"key":` with the commas between, then `}`.
struct JSONObjectFields {
    private let writer: JSONStreamWriter
    private var first = true

    /// Opens the object.
    init(_ writer: JSONStreamWriter) {
        self.writer = writer
        writer.writeLiteral("{")
    }

    /// Starts the member `name` (its value is written next).
    mutating func key(_ name: StaticString) {
        if first { writer.writeLiteral("\"") } else { writer.writeLiteral(",\"") }
        first = false
        name.withUTF8Buffer { writer.writeBytes($0) }
        writer.writeLiteral("\":")
    }

    /// Closes the object.
    func end() {
        writer.writeLiteral("}")
    }
}

extension JSONStreamWriter {
    /// Writes `elements` as a JSON array, each by `element`.
    func writeArray<Element>(_ elements: [Element], _ element: (Element) throws -> Void) rethrows {
        writeLiteral("[")
        for (index, value) in elements.enumerated() {
            if index > 0 { writeLiteral(",") }
            try element(value)
        }
        writeLiteral("]")
    }

    /// Writes `members` as a JSON object, each value by `value` (keys in no particular order).
    func writeObject<Value>(_ members: [String: Value], _ value: (Value) throws -> Void) rethrows {
        writeLiteral("{")
        var first = true
        for (key, member) in members {
            if !first { writeLiteral(",") }
            first = false
            writeString(key)
            writeLiteral(":")
            try value(member)
        }
        writeLiteral("}")
    }
}
