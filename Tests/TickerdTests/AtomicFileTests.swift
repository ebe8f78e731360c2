import Foundation
import Testing
@testable import tickerd

@Suite struct AtomicFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "tickerd-atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func writeThenReadGivesTheSameBytes() throws {
        let path = folder + "/state.json"
        let bytes = Array("{\"hello\": \"wörld\"}".utf8)
        try AtomicFile.write(bytes, to: path)
        #expect(try AtomicFile.read(path) == bytes)
    }

    @Test func replacingLeavesNoTemporaryFiles() throws {
        let path = folder + "/state.json"
        for round in 0..<5 {
            try AtomicFile.write(Array("round \(round)".utf8), to: path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"])
        #expect(try AtomicFile.read(path) == Array("round 4".utf8))
    }

    @Test func missingFileReadsAsNil() throws {
        #expect(try AtomicFile.read(folder + "/absent") == nil)
    }

    @Test func failedWriteIsANamedErrorAndKeepsTheOldFile() throws {
        let path = folder + "/state.json"
        try AtomicFile.write(Array("old".utf8), to: path)
        // A target inside a regular file cannot be created, whoever runs the test (root included).
        let error = try #require(throws: FileSystemError.self) {
            try AtomicFile.write(Array("new".utf8), to: path + "/child")
        }
        #expect(error.operation == "open")
        #expect(error.code == ENOTDIR)
        #expect(try AtomicFile.read(path) == Array("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"])
    }

    @Test func makeFoldersCreatesEveryLevel() throws {
        let deep = folder + "/a/b/c"
        try AtomicFile.makeFolders(deep)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: deep, isDirectory: &isFolder) && isFolder.boolValue)
    }

    @Test func errorNamesOperationAndPath() {
        let failure = FileSystemError(operation: "write", path: "/x/state.json", code: ENOSPC)
        #expect(failure.description == "write /x/state.json: No space left on device")
    }
}
