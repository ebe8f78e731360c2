import Testing
@testable import TickerSources

/// Notification bodies as plain text (Desktop Notifications 1.2 "Markup").
@Suite struct MarkupStripperTests {
    @Test func tagsGoEntitiesAreDecodedOnce() {
        let cases: [(String, String)] = [
            ("<b>Build</b> <i>green</i>", "Build green"),
            ("<a href=\"https://example.org\">the page</a>", "the page"),
            ("line one<br/>line two", "line one line two"),
            ("Tom &amp; Jerry &lt;3", "Tom & Jerry <3"),
            // A decoded '<' is text, never a tag: "&lt;b&gt;" shows as "<b>".
            ("&lt;b&gt;not bold&lt;/b&gt;", "<b>not bold</b>"),
            ("a < b and c > d", "a < b and c > d"),
            ("&#39;quoted&#x27; &#x1F600;", "'quoted' 😀"),
            // Control characters stay out, as escapes and as text.
            ("bell&#7;here", "bell&#7;here"),
            ("tab\tand\nnewline\u{7}", "tab and newline"),
            ("&unknown; &amp", "&unknown; &amp"),
        ]
        for (markup, plain) in cases {
            #expect(MarkupStripper.plainText(markup) == plain, "\(markup)")
        }
    }
}
