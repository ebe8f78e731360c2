import Testing
@testable import DBus

@Test func libraryLinks() {
    #expect(DBusLibrary.protocolVersion == 1)
}
