import Testing
@testable import TickerModel

/// `{name}` placeholders: parsing, escapes, unset names, and how a tape lays out counter fields.
@Suite struct CounterPlaceholderTests {
    static let base: Instant = 1_700_000_000_000_000

    @Test("parsing: placeholders, doubled braces, and everything else literal")
    func parse() {
        let cases: [(String, [TemplatePart])] = [
            ("plain", [.text("plain")]),
            ("", []),
            ("日本 é 🎉", [.text("日本 é 🎉")]),
            ("{n}", [.placeholder("n")]),
            ("Sold {count_1} today", [.text("Sold "), .placeholder("count_1"), .text(" today")]),
            ("{a}{b}", [.placeholder("a"), .placeholder("b")]),
            ("{{n}}", [.text("{n}")]),
            ("{{{n}}}", [.text("{"), .placeholder("n"), .text("}")]),
            ("a {{ b }} c", [.text("a { b } c")]),
            ("unterminated {name", [.text("unterminated {name")]),
            ("{", [.text("{")]),
            ("}", [.text("}")]),
            ("{}", [.text("{}")]),
            ("{a b}", [.text("{a b}")]),
            ("{é}", [.text("{é}")]),
            ("{a{b}", [.text("{a"), .placeholder("b")]),
            ("{" + String(repeating: "x", count: 64) + "}", [.placeholder(String(repeating: "x", count: 64))]),
            ("{" + String(repeating: "x", count: 65) + "}", [.text("{" + String(repeating: "x", count: 65) + "}")]),
        ]
        for (text, expected) in cases {
            #expect(Placeholders.parse(text) == expected, "\(text.debugDescription)")
        }
        #expect(Placeholders.names(in: "{a} and {b} and {a}") == ["a", "b", "a"])
    }

    @Test("expansion for the Text property: values with prefix and suffix, unset names literally")
    func expand() throws {
        var counters = CounterSet()
        try counters.set("n", to: 1234, options: CounterOptions(grouping: true, prefix: "$"), at: Self.base)
        #expect(Placeholders.expand("Total {n}, {m} {{x}}", counters: counters, at: Self.base) == "Total $1,234, {m} {x}")
    }

    @Test("a tape reserves the field, keeps unset names and escapes, and records spans")
    func tapeLayout() throws {
        var counters = CounterSet()
        try counters.set("n", to: 5, at: Self.base)
        try counters.set("n", to: 1500, options: CounterOptions(duration: 10_000_000, grouping: true, prefix: "#", suffix: "!"), at: Self.base)
        let messages = [
            TapeMessage(key: "a", text: "Sold {n} {m} {{n}}"),
            TapeMessage(key: "b", text: "bye"),
        ]
        let tape = Tape(messages: messages, separator: " | ", counters: counters, at: Self.base)
        let fill = String(repeating: String(Tape.fieldFill), count: 5) // "1,500" is the widest
        #expect(tape.content == "Sold #\(fill)! {m} {n} | bye")
        #expect(tape.gap == " | ")
        let layout = try #require(tape.layout)
        #expect(layout.messages.map(\.key) == ["a", "b"])
        #expect(layout.messages[0].clusters == 0..<20)
        #expect(layout.messages[0].words == 4)
        #expect(layout.messages[1].clusters == 23..<26)
        #expect(layout.messages[1].cells == 23..<26)
        #expect(layout.fields == [FieldSpan(name: "n", clusters: 6..<11)])
        // Once the count has ended the field is as wide as the final value.
        let after = Tape(messages: messages, separator: " | ", counters: counters, at: Self.base + 10_000_000)
        #expect(after.layout?.fields.first?.clusters.count == 5)
        #expect(after != Tape(messages: [TapeMessage(key: "a", text: "x")], separator: " | ", at: Self.base))
    }

    @Test("tapes with the same text but other spans differ; plain tapes are unchanged")
    func equality() {
        let one = Tape(messages: [TapeMessage(key: "a", text: "hi")], separator: " | ", at: Self.base)
        let other = Tape(messages: [TapeMessage(key: "b", text: "hi")], separator: " | ", at: Self.base)
        #expect(one.text == other.text)
        #expect(one != other)
        #expect(Tape(messages: ["hi"], separator: " | ") == Tape(messages: ["hi"], separator: " | "))
        #expect(Tape(messages: [TapeMessage](), separator: " | ", at: Self.base) == .empty)
    }
}
