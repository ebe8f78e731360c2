import Foundation
import Testing
import TestSupport
@testable import Feeds
import SourceFetch

/// Bad documents get an error that says what is wrong; dates in the formats feeds use.
@Suite struct FeedParsingTests {
    @Test(arguments: [
        ("", "not well-formed XML"),
        ("<html><body>hello</body></html>", "not a feed: the root element is <html>"),
        ("<rss version=\"2.0\"><channel><title>x</channel></rss>", "not well-formed XML"),
        ("<rss version=\"2.0\"></rss>", "<rss> without <channel>"),
        ("{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [{\"id\": {}}]}", "JSON Feed field .items[0].id"),
        ("{\"items\": []}", "not a JSON Feed"),
        ("{\"version\": ", "not valid JSON"),
    ])
    func aBrokenDocumentIsAnErrorSayingWhy(document: String, expected: String) {
        do {
            let feed = try Feed(parsing: Data(document.utf8))
            Issue.record("parsed as \(feed)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    /// Found by the `feed` fuzz target: FoundationXML's XMLParser trapped on these
    /// (Fuzz/corpus/feed/regress-*): a name that is not UTF-8 is refused, and an `&` before a
    /// non-ASCII name starts no reference, so it is read as a bare `&`.
    @Test func documentsXMLParserTrappedOnAreReadOrRefused() throws {
        let corpus = PythonVenv.repositoryRoot + "/Fuzz/corpus/feed/"
        let name = try Data(contentsOf: URL(fileURLWithPath: corpus + "regress-invalid-utf8-name.xml"))
        #expect(throws: FeedParseError.self) { try Feed(parsing: name) }
        let entity = try Data(contentsOf: URL(fileURLWithPath: corpus + "regress-entity-non-ascii.xml"))
        #expect(try Feed(parsing: entity).title == "a &emé; b")
    }

    /// A processing instruction with no data (`<?php?>`) is well-formed XML, but libxml2 hands
    /// its reader a NULL for its data and FoundationXML's XMLParser crashed on it, taking
    /// tickerd-sources down at every fetch of such a feed (found by the `feed` fuzz target,
    /// Fuzz/corpus/feed/regress-instruction-*.xml). The feed reads as any other.
    @Test func aProcessingInstructionWithoutDataIsReadLikeAnyOther() throws {
        let corpus = PythonVenv.repositoryRoot + "/Fuzz/corpus/feed/"
        let found = try Data(contentsOf: URL(fileURLWithPath: corpus + "regress-instruction-without-data.xml"))
        #expect(throws: FeedParseError.self) { try Feed(parsing: found) }
        let rss = """
            <?xml version="1.0"?><?php?><rss version="2.0"><channel><?x?><title>News<![CDATA[<?a?>]]></title>
            <item><title>One<?y?><!-- <?b?> --></title><guid>1</guid></item></channel></rss>
            """
        let feed = try Feed(parsing: Data(rss.utf8))
        #expect(feed.title == "News")  // the CDATA's `<?a?>` reads as a tag in a title, dropped as before
        #expect(feed.items.map(\.title) == ["One"])
        // The second shape the fuzz target found: an instruction's `<?` opening another.
        let nested = try Data(contentsOf: URL(fileURLWithPath: corpus + "regress-instruction-in-instruction.xml"))
        #expect(throws: FeedParseError.self) { try Feed(parsing: nested) }
    }

    /// HTML's named references, undeclared in XML, bare ampersands and control characters are
    /// read as meant; an unknown name is still an error, and a document with entities of its own
    /// is left alone.
    @Test func undeclaredHTMLEntitiesAndBareAmpersandsAreReadAsMeant() throws {
        func title(_ text: String) throws -> String {
            try Feed(parsing: Data("<rss version=\"2.0\"><channel><title>\(text)</title></channel></rss>".utf8)).title
        }
        #expect(try title("a&nbsp;b &mdash; c&hellip; &eacute;t&eacute;") == "a b — c… été")
        #expect(try title("Tom & Jerry &amp; &#233;&#xE9; &") == "Tom & Jerry & éé &")
        let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title type=\"text\"><![CDATA[&nbsp; as written]]><!-- & --></title></feed>"
        #expect(try Feed(parsing: Data(atom.utf8)).title == "&nbsp; as written")
        // Control characters XML does not allow (feedparser reads them too) are spaces.
        #expect(try title("A vertical\u{0B}tab, an escape\u{1B}[0m, a NUL\u{00}here") == "A vertical tab, an escape [0m, a NUL here")
        #expect { try title("&bogus; entity") } throws: { ($0 as? FeedParseError)?.message.contains("an undeclared entity") == true }
        let declared = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY me \"Ann\">]><rss version=\"2.0\"><channel>"
            + "<title>&me; &amp; co</title></channel></rss>"
        // (A document's own entities are not expanded; what matters is that the document is not
        // changed: its `&amp;` is not taken for a bare `&`.)
        let own = try Feed(parsing: Data(declared.utf8)).title
        #expect(own.hasSuffix("& co") && !own.contains("amp"), "\(own)")
        let withHTML = declared.replacingOccurrences(of: "&amp; co", with: "&nbsp;&amp; co")
        #expect(XMLRepair.repaired(Array(withHTML.utf8)) == Array(withHTML.utf8))
    }

    /// The entities a document declares itself are not expanded, so a few hundred bytes of
    /// declarations cannot become gigabytes of text (billion laughs), and one naming a file or
    /// URL is not read; a reference to either reads as nothing. Predefined and character
    /// references still are.
    @Test func aDocumentsOwnEntitiesAreNotExpandedOrLoaded() throws {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        declarations += "<!ENTITY passwd SYSTEM \"file:///etc/passwd\"><!ENTITY remote SYSTEM \"http://127.0.0.1:9/x\">"
        let document = "<?xml version=\"1.0\"?><!DOCTYPE rss [\(declarations)]><rss version=\"2.0\"><channel>"
            + "<title>a &lol9; b &passwd;&remote; &#233;t&#233;</title></channel></rss>"
        let title = try Feed(parsing: Data(document.utf8)).title
        #expect(title.hasPrefix("a ") && title.hasSuffix(" été") && !title.contains("lol") && !title.contains("root:"), "\(title)")
    }

    /// An entity the document declares may have a name beyond ASCII, as XML allows. FoundationXML's
    /// XMLParser trapped on a reference to one, so such documents were refused before parsing;
    /// read with libxml2 directly, the document is read (the reference, like any to the
    /// document's own entities, adds nothing).
    @Test func aDeclaredEntityWithANonASCIINameIsRead() throws {
        let document = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY emé \"x\">]><rss version=\"2.0\"><channel>"
            + "<title>a &emé; b</title><item><title>été</title></item></channel></rss>"
        let feed = try Feed(parsing: Data(document.utf8))
        #expect(feed.title.hasPrefix("a") && feed.title.hasSuffix("b") && !feed.title.contains("&"), "\(feed.title)")
        #expect(feed.items.map(\.title) == ["été"])
    }

    /// libxml2's warnings do not make a feed unreadable, only its errors: a feed that declares
    /// XML 1.1 (libxml2 warns that it reads it as 1.0) is read. FoundationXML's XMLParser
    /// passed warnings on as errors, so such a feed failed.
    @Test func aWarningIsNotAnError() throws {
        let document = "<?xml version=\"1.1\"?><rss version=\"2.0\"><channel><title>One point one</title></channel></rss>"
        #expect(try Feed(parsing: Data(document.utf8)).title == "One point one")
    }

    /// The mending changes nothing in a well-formed feed: every fixture feedparser reads
    /// without complaint comes out of it byte for byte.
    @Test func wellFormedFeedsAreNotMended() throws {
        let folder = FeedServer.fixtures
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }
            .filter { !FeedComparisonTests.messy.contains($0) }
        #expect(names.count >= 9)
        for name in names {
            let charset = (try? String(contentsOfFile: folder + "/" + name + ".content-type", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let document = try FeedCharset.utf8Document(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)),
                                                        charset: ConditionalFetcher.charset(ofContentType: charset))
            #expect(XMLRepair.repaired([UInt8](document)) == [UInt8](document), "\(name)")
        }
    }

    @Test func otherEncodingsAreReadAndAnUnknownOneIsNamed() throws {
        // UTF-16 (little-endian, with its byte order mark).
        let document = #"<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>Ünïcødé</title>"#
            + "<item><title>€ 5 — 𝄞</title></item></channel></rss>"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in document.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let feed = try Feed(parsing: Data(utf16))
        #expect(feed.title == "Ünïcødé" && feed.items.map(\.title) == ["€ 5 — 𝄞"])
        // The HTTP charset wins over the declaration (RFC 7303).
        let latin = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>t</title>"#
            + "<item><title>caf\u{E9} cr\u{E8}me</title></item></channel></rss>"
        let latinBytes = latin.unicodeScalars.map { UInt8($0.value) }
        #expect(try Feed(parsing: Data(latinBytes), charset: "ISO-8859-1").items.map(\.title) == ["café crème"])
        #expect(throws: FeedParseError.self) { try Feed(parsing: Data(latinBytes)) }
        // An encoding it does not read is named.
        let koi = Data(#"<?xml version="1.0" encoding="KOI8-R"?><rss version="2.0"/>"#.utf8)
        #expect { try Feed(parsing: koi) } throws: { ($0 as? FeedParseError)?.message.contains("'KOI8-R' is not read") == true }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 10_000
        let document = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: FeedParseError.self) { try Feed(parsing: Data(document.utf8)) }
    }

    @Test(arguments: [
        ("Wed, 25 Nov 2026 18:30:00 +0100", Int64(1_795_627_800)),
        ("25 Nov 2026 17:30 GMT", Int64(1_795_627_800)),
        ("Wed, 25 Nov 26 12:30:00 EST", Int64(1_795_627_800)),
        ("2026-11-25T17:30:00Z", Int64(1_795_627_800)),
        ("2026-11-25T18:30:00.123+01:00", Int64(1_795_627_800)),
        ("2026-11-25", Int64(1_795_564_800)),
        // As real feeds write them (the instants feedparser gives).
        ("Tue, 24 Nov 2026 09:00:00 +01:00", Int64(1_795_507_200)),
        ("2026-11-24 09:00:00 +0100", Int64(1_795_507_200)),
        ("2026-11-24T09:00:00+0100", Int64(1_795_507_200)),
        ("Tue, 24 Nov 2026 09:00:00 +0000 (UTC)", Int64(1_795_510_800)),
        ("Tue, 24 November 2026 9:00:00 GMT", Int64(1_795_510_800)),
        ("Tue, 24 Nov 2026 09:00:00 XYZ", Int64(1_795_510_800)),
        // feedparser takes CET as UTC; it is an hour east.
        ("Tue, 24 Nov 2026 09:00 CET", Int64(1_795_507_200)),
    ])
    func datesInTheFormatsFeedsUse(text: String, seconds: Int64) {
        #expect(FeedDate.parse(text) == seconds * 1_000_000)
    }

    @Test(arguments: ["", "yesterday", "Wed, 32 Nov 2026 18:30:00 GMT", "2026-13-01T00:00:00Z", "Wed, 25 Nov 2026 18:30:00 +1"])
    func nonsenseIsNoDate(text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    @Test func newestPutsDatedItemsFirstThenUndatedInDocumentOrder() {
        let items = [FeedItem(id: "a", title: "a", link: nil, date: nil),
                     FeedItem(id: "b", title: "b", link: nil, date: 10),
                     FeedItem(id: "c", title: "c", link: nil, date: 30),
                     FeedItem(id: "d", title: "d", link: nil, date: nil),
                     FeedItem(id: "e", title: "e", link: nil, date: 30)]
        let feed = Feed(format: .rss, title: "", items: items)
        #expect(feed.newest(4).map(\.key) == ["c", "e", "b", "a"])
        #expect(feed.newest(0).isEmpty)
    }

    /// A feed that repeats an entry's id (found by the feed fuzz target) shows it once.
    @Test func newestShowsARepeatedIDOnce() {
        let items = [FeedItem(id: "a", title: "first a", link: nil, date: 20),
                     FeedItem(id: "a", title: "second a", link: nil, date: 10),
                     FeedItem(id: "b", title: "b", link: nil, date: nil)]
        let feed = Feed(format: .atom, title: "", items: items)
        #expect(feed.newest(3).map(\.title) == ["first a", "b"])
    }
}
