import Testing
@testable import TickerModel

@Test func modelLinks() {
    #expect(TickerModelInfo.rulesVersion == 3)
}
