import Testing
import TickerSources

/// The message template: fields, escapes, and errors that say where.
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

    @Test func unknownFieldsAreNamed() throws {
        let template = try MessageTemplate(parsing: "{artist} {album}")
        #expect(throws: TemplateError.self) { try template.check(fields: ["artist", "title"]) }
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
