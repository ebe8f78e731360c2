import Testing
import TickerSources
import TestSupport

/// The message template: fields, optional parts, escapes, and errors that say where.
@Suite struct TemplateTests {
    @Test func rendersFieldsAndLiterals() throws {
        let template = try MessageTemplate(parsing: "{artist} — {title}")
        #expect(template.fieldNames == ["artist", "title"])
        #expect(template.render(["artist": "Nina Simone", "title": "Sinnerman"]) == "Nina Simone — Sinnerman")
        #expect(template.render(["title": "Sinnerman"]) == " — Sinnerman")
        #expect(try MessageTemplate(parsing: "It's {summary}!").render(["summary": "Johnny's birthday"])
            == "It's Johnny's birthday!")
    }

    @Test func doubledBracesAreLiteral() throws {
        let template = try MessageTemplate(parsing: "{{{x}}} }}{{")
        #expect(template.render(["x": "v"]) == "{v} }{")
        #expect(template.fieldNames == ["x"])
    }

    @Test func malformedTemplatesSayWhereAndWhy() {
        let cases: [(String, Int, String)] = [
            ("{artist", 1, "never closed"),
            ("a } b", 3, "without a '{'"),
            ("x {}", 3, "empty field name"),
            ("{a b}", 3, "cannot be part of a field name"),
            ("{a{b}}", 3, "inside the field"),
        ]
        for (text, column, words) in cases {
            #expect {
                _ = try MessageTemplate(parsing: text)
            } throws: { error in
                guard let error = error as? TemplateError else { return false }
                return error.column == column && error.problem.contains(words)
            }
        }
    }

    @Test func anOptionalPartShowsOnlyWhenItsFieldsAreNotEmpty() throws {
        let music = try MessageTemplate(parsing: "♪ [{artist} — ]{title}")
        #expect(music.fieldNames == ["artist", "title"])
        #expect(music.render(["artist": "Nina Simone", "title": "Sinnerman"]) == "♪ Nina Simone — Sinnerman")
        #expect(music.render(["title": "Radio Paradise"]) == "♪ Radio Paradise")
        #expect(music.render(["artist": "", "title": "Radio Paradise"]) == "♪ Radio Paradise")
        #expect(music.render(["artist": "  ", "title": "Radio Paradise"]) == "♪ Radio Paradise")

        let note = try MessageTemplate(parsing: "{app}: {summary}[ — {body}]")
        #expect(note.render(["app": "Firefox", "summary": "Done", "body": "report.pdf"]) == "Firefox: Done — report.pdf")
        #expect(note.render(["app": "Firefox", "summary": "Done", "body": ""]) == "Firefox: Done")
    }

    @Test func aPartWithSeveralFieldsNeedsAllOfThem() throws {
        let template = try MessageTemplate(parsing: "[{count} new mails from {sender}]")
        #expect(template.render(["count": "3", "sender": "Ann"]) == "3 new mails from Ann")
        #expect(template.render(["count": "3"]) == "")
        #expect(template.render(["sender": "Ann"]) == "")
        // Two fields alone are a part too: both or nothing.
        let both = try MessageTemplate(parsing: "x[{a}{b}]y")
        #expect(both.render(["a": "1", "b": "2"]) == "x12y")
        #expect(both.render(["a": "1"]) == "xy")
        // Several parts are independent of each other.
        let several = try MessageTemplate(parsing: "[{a}, ][{b}, ]{c}")
        #expect(several.render(["a": "A", "c": "C"]) == "A, C")
        #expect(several.render(["b": "B", "c": "C"]) == "B, C")
        #expect(several.pieces == [
            .optional([.field("a"), .literal(", ")]), .optional([.field("b"), .literal(", ")]), .field("c"),
        ])
    }

    @Test func doubledBracketsAreLiteralInsideAndOutsideParts() throws {
        let template = try MessageTemplate(parsing: "[[{app}]] {summary}[ [[{body}]]]")
        #expect(template.render(["app": "mutt", "summary": "New", "body": "Ann"]) == "[mutt] New [Ann]")
        #expect(template.render(["app": "mutt", "summary": "New"]) == "[mutt] New")
        #expect(template.pieces == [
            .literal("["), .field("app"), .literal("] "), .field("summary"),
            .optional([.literal(" ["), .field("body"), .literal("]")]),
        ])
        // Braces keep their meaning inside a part.
        #expect(try MessageTemplate(parsing: "[{{{x}}} ]").render(["x": "v"]) == "{v} ")
    }

    @Test func malformedPartsSayWhereAndWhy() {
        let cases: [(String, Int, String)] = [
            ("♪ [{artist} — {title}", 3, "never closed with ']'"),
            ("{title} ]", 9, "']' without a '['"),
            ("[{a} [{b}] ]", 6, "parts do not nest"),
            ("[note] {summary}", 1, "has no field"),
            ("x [] y", 3, "has no field"),
            ("[{app}] {summary}", 1, "holds only a field"),
            ("[{a} {b]", 8, "cannot be part of a field name"),
            ("[{a} }]", 6, "without a '{'"),
        ]
        for (text, column, words) in cases {
            #expect {
                _ = try MessageTemplate(parsing: text)
            } throws: { error in
                guard let error = error as? TemplateError else { return false }
                return error.column == column && error.problem.contains(words)
            }
        }
    }

    /// Short random texts of fields, braces, brackets and letters: each is refused at a column
    /// within it, or parsed into pieces that, written back with braces and brackets doubled, parse
    /// the same, hold no part in a part, and whose parts vanish exactly when a field in them is empty.
    @Test func randomTemplatesParseOrSayWhere() throws {
        let tokens = ["{a}", "{b}", "[", "]", "[[", "]]", "{{", "}}", "{", "}", "a", " — "]
        let inner = ["{a}", "{b}", " — ", "x", "[[", "]]", "{{", "}}"]
        var random = SeededRandom(seed: 0x7E4D)
        var parsedWithParts = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    let count = Int.random(in: 1...3, using: &random)
                    text += "[" + (0..<count).map { _ in inner.randomElement(using: &random)! }.joined() + "]"
                } else {
                    text += tokens.randomElement(using: &random)!
                }
            }
            let template: MessageTemplate
            do {
                template = try MessageTemplate(parsing: text)
            } catch {
                #expect((1...text.unicodeScalars.count).contains(error.column), "'\(text)': \(error)")
                continue
            }
            func written(_ pieces: [MessageTemplate.Piece]) -> String {
                pieces.map { piece in
                    switch piece {
                    case .literal(let literal):
                        literal.unicodeScalars.map { "{}[]".unicodeScalars.contains($0) ? "\($0)\($0)" : "\($0)" }.joined()
                    case .field(let name): "{\(name)}"
                    case .optional(let inner): "[" + written(inner) + "]"
                    }
                }.joined()
            }
            #expect(try MessageTemplate(parsing: written(template.pieces)) == template, "'\(text)'")
            let parts = template.pieces.compactMap { if case .optional(let inner) = $0 { inner } else { nil } }
            #expect(!parts.joined().contains { if case .optional = $0 { true } else { false } }, "'\(text)' nests")
            guard !parts.isEmpty else { continue }
            parsedWithParts += 1
            let everything = Dictionary(uniqueKeysWithValues: template.fieldNames.map { ($0, "<\($0)>") })
            let withoutA = everything.merging(["a": ""]) { $1 }
            let expected = template.pieces.map { piece -> String in
                switch piece {
                case .literal(let literal): literal
                case .field(let name): withoutA[name] ?? ""
                case .optional(let inner):
                    inner.contains(.field("a")) ? "" : MessageTemplate.Piece.optional(inner).shown(withoutA)
                }
            }.joined()
            #expect(template.render(withoutA) == expected, "'\(text)'")
        }
        #expect(parsedWithParts > 500, "\(parsedWithParts) texts with parts")
    }

    @Test func unknownFieldsInsidePartsAreNamed() throws {
        let template = try MessageTemplate(parsing: "[{artst} — ]{title}")
        let error = #expect(throws: TemplateError.self) { try template.check(fields: ["artist", "title"]) }
        #expect(error?.description == "column 2: unknown field '{artst}' (this source has: artist, title)")
    }

    @Test func unknownFieldsAreNamed() throws {
        // Columns count characters (scalars), and a field used twice is reported where it is first.
        let template = try MessageTemplate(parsing: "{artist} ♪ {album} {album}")
        let error = #expect(throws: TemplateError.self) { try template.check(fields: ["artist", "title"]) }
        #expect(error?.description == "column 12: unknown field '{album}' (this source has: artist, title)")
        try template.check(fields: ["artist", "album"])
    }

    @Test func messageIDsAreStableAndValid() throws {
        let binding = SourceBinding(name: "music", channel: "main", template: try MessageTemplate(parsing: "{x}"))
        #expect(binding.messageID(of: "current") == "src/music/current")
        let odd = binding.messageID(of: "a key with spaces ✓")
        #expect(odd == binding.messageID(of: "a key with spaces ✓"))
        #expect(odd.hasPrefix("src/music/#") && odd.utf8.count == 27)
        #expect(binding.messageID(of: String(repeating: "k", count: 200)).utf8.count <= 128)
    }
}

extension MessageTemplate.Piece {
    /// A part's text when all of its fields are set in `fields`.
    fileprivate func shown(_ fields: [String: String]) -> String {
        guard case .optional(let inner) = self else { return "" }
        return inner.map { piece in
            switch piece {
            case .literal(let literal): literal
            case .field(let name): fields[name] ?? ""
            case .optional: ""
            }
        }.joined()
    }
}
