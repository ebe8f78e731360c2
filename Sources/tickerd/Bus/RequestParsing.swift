import DBus
import TickerModel

/// Turns the `a{sv}` dictionaries of `Post`, `Update`, `Configure` and `Subscribe` into typed
/// requests, strictly: unknown keys and wrong types are `InvalidOption` naming the key.
enum RequestParsing {
    /// Keys `Post` accepts.
    static let postKeys = ["id", "priority", "urgent", "ttl", "start", "end", "calendar", "duration", "effect", "reveal", "link"]
    /// Keys `Update` accepts.
    static let updateKeys = [
        "text", "priority", "urgent", "ttl", "start", "end", "calendar", "duration", "effect", "reveal", "link",
    ]
    /// The channel settings `Configure` accepts (and a `[channel.NAME]` section of the
    /// configuration file).
    static let configureKeys = [
        "mode", "speed", "cycle", "delay", "easing", "loops", "direction", "align", "separator", "gap",
        "columns", "frame-rate", "phase",
    ]
    /// The `Configure` key that starts from the channel's configured settings: not a setting, so
    /// not a key of the configuration file.
    static let resetKey = "reset"
    /// Keys `SetValue` accepts.
    static let setValueKeys = ["duration", "easing", "from", "decimals", "grouping", "prefix", "suffix"]
    /// Keys `Subscribe` accepts.
    static let subscribeKeys = ["columns", "fps"]

    /// The `effect` value that means "no effect" (an `Update` removes a message's effect with it).
    static let noEffect = "none"

    /// The options of a `Post`.
    static func post(_ options: [String: DBusValue]) throws(TickerError) -> MessageRequest {
        var reader = OptionReader(options, context: "Post")
        var request = try messageFields(&reader)
        request.id = try reader.string("id")
        if request.link?.isEmpty == true {
            throw .invalidOption("option 'link': \(LinkURI.problem("") ?? "a link cannot be empty") (leave it out for none)")
        }
        try reader.finish(known: postKeys)
        if request.reveal != nil, request.effect != .reveal {
            throw .invalidOption("option 'reveal' (a duration) goes with effect 'reveal'")
        }
        return request
    }

    /// The changes of an `Update`.
    static func update(_ changes: [String: DBusValue]) throws(TickerError) -> MessageRequest {
        var reader = OptionReader(changes, context: "Update")
        var request = try messageFields(&reader)
        request.text = try reader.string("text")
        try reader.finish(known: updateKeys)
        return request
    }

    /// The settings of a `Configure`, and whether they start from the channel's configured
    /// settings (`reset`).
    static func configure(
        _ settings: [String: DBusValue]
    ) throws(TickerError) -> (request: ChannelConfigureRequest, reset: Bool) {
        var reader = OptionReader(settings, context: "Configure")
        var request = ChannelConfigureRequest()
        request.mode = try named(reader.string("mode"), "mode", Mode.init(rawValue:), Mode.allCases.map(\.rawValue))
        request.speed = try reader.double("speed")
        request.cycle = try reader.duration("cycle")
        if request.speed != nil, request.cycle != nil {
            throw .invalidOption("give 'speed' or 'cycle', not both")
        }
        request.delay = try reader.duration("delay")
        request.easing = try named(
            reader.string("easing"), "easing", Easing.init(name:), Easing.acceptedNames)
        request.loops = try reader.uint32("loops")
        request.direction = try named(
            reader.string("direction"), "direction", Direction.init(rawValue:), Direction.allCases.map(\.rawValue))
        request.align = try named(reader.string("align"), "align", Align.init(rawValue:), Align.allCases.map(\.rawValue))
        request.separator = try reader.string("separator")
        request.gap = try reader.string("gap")
        request.columns = try reader.uint32("columns")
        request.frameRate = try reader.double("frame-rate")
        request.phase = try named(reader.string("phase"), "phase", Phase.init(rawValue:), Phase.allCases.map(\.rawValue))
        let reset = try reader.bool(resetKey) ?? false
        try reader.finish(known: configureKeys + [resetKey])
        return (request, reset)
    }

    /// The options of a `SetValue`.
    static func setValue(_ options: [String: DBusValue]) throws(TickerError) -> CounterOptions {
        var reader = OptionReader(options, context: "SetValue")
        var result = CounterOptions()
        result.duration = try reader.duration("duration") ?? 0
        result.easing = try named(
            reader.string("easing"), "easing", Easing.init(name:), Easing.acceptedNames) ?? .linear
        result.from = try reader.double("from")
        result.decimals = try reader.uint32("decimals").map { Int($0) }
        result.grouping = try reader.bool("grouping")
        result.prefix = try reader.string("prefix").map { (text: String) throws(TickerError) in
            try counterText(text, option: "prefix")
        }
        result.suffix = try reader.string("suffix").map { (text: String) throws(TickerError) in
            try counterText(text, option: "suffix")
        }
        try reader.finish(known: setValueKeys)
        return result
    }

    /// A counter's prefix or suffix under the rules and limits of posted text: it is shown in
    /// every frame beside the number (an empty one is fine: no text around the number).
    private static func counterText(_ text: String, option: String) throws(TickerError) -> String {
        guard !text.isEmpty else { return text }
        do {
            return try TextSanitizer.sanitize(text)
        } catch {
            let message = "SetValue option '\(option)': \(error.description)"
            throw error.isLimit ? .limitExceeded(message) : .invalidText(message)
        }
    }

    /// The options of a `Subscribe`: columns and frames per second.
    static func subscribe(_ options: [String: DBusValue]) throws(TickerError) -> (columns: UInt32?, fps: Double?) {
        var reader = OptionReader(options, context: "Subscribe")
        let columns = try reader.uint32("columns")
        let fps = try reader.double("fps")
        try reader.finish(known: subscribeKeys)
        return (columns, fps)
    }

    private static func messageFields(_ reader: inout OptionReader) throws(TickerError) -> MessageRequest {
        var request = MessageRequest()
        request.priority = try reader.int32("priority")
        request.urgent = try reader.bool("urgent")
        request.ttl = try reader.int64("ttl")
        request.start = try reader.int64("start")
        request.end = try reader.int64("end")
        request.calendar = try reader.string("calendar")
        request.duration = try reader.int64("duration")
        let effect = try reader.string("effect")
        if effect == RequestParsing.noEffect {
            request.removesEffect = true
        } else {
            request.effect = try named(
                effect, "effect", EffectKind.init(rawValue:),
                EffectKind.allCases.map(\.rawValue) + [RequestParsing.noEffect])
        }
        request.reveal = try reader.duration("reveal")
        request.link = try reader.string("link")
        if let link = request.link, !link.isEmpty, let problem = LinkURI.problem(link) {
            throw .invalidOption("option 'link': \(problem)")
        }
        return request
    }

    private static func named<T>(
        _ text: String?, _ key: String, _ make: (String) -> T?, _ allowed: [String]
    ) throws(TickerError) -> T? {
        guard let text else { return nil }
        guard let value = make(text) else {
            throw .invalidOption("option '\(key)' must be one of \(allowed.joined(separator: ", ")), got '\(text)'")
        }
        return value
    }
}
