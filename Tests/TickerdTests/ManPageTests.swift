import Foundation
import Testing
import TestSupport

/// The man pages in `man/`: groff renders them without a warning, and each names itself.
@Suite struct ManPageTests {
    static let pages = [
        "tickerd.8": "tickerd", "tickerctl.1": "tickerctl", "tickerd.toml.5": "tickerd.toml",
        "tickerd-sources.8": "tickerd-sources",
    ]

    @Test(arguments: pages.keys.sorted())
    func pageRendersWithoutWarnings(_ page: String) throws {
        let path = Repository.path("man/" + page)
        let rendered = try ChildProcess.run("groff", ["-man", "-Tutf8", "-ww", "-b", "-P", "-cbou", path],
                                            environment: ["LC_ALL": "C.UTF-8"])
        #expect(rendered.status == 0)
        #expect(rendered.stderr == "")
        let name = try #require(Self.pages[page])
        let section = String(page.split(separator: ".").last ?? "")
        let source = try String(contentsOfFile: path, encoding: .utf8)
        #expect(source.contains(".TH \(name.uppercased()) \(section) "))
        #expect(source.contains(".SH NAME\n\(name) \\- "))
        #expect(rendered.stdout.contains("SEE ALSO"))
    }
}
