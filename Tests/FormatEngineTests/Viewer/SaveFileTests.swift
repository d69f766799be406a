import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// V10: where a save writes. Through a symbolic link the file it names is replaced (the link
/// stays a link); a file without write permission is not replaced; `w` with nothing to save
/// writes nothing.
@Suite("Viewer: where a save writes")
struct SaveFileTests {
    static let text = "a,b\n1,x\n2,y\n"

    static func edits() -> RowEdits {
        var edits = RowEdits()
        edits.set(0, field: 1, to: Array("Q".utf8))
        return edits
    }

    @Test("V10: saving through a symbolic link writes the file it names, beside it; the link stays a link")
    func throughSymlink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-link-\(getpid())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("real"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("real/data.csv")
        let link = directory.appendingPathComponent("link.csv")
        try Data(Self.text.utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real/data.csv")
        try TableSaveCaseTests.save(link, Self.edits(), rows: 2, columns: ["a", "b"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/data.csv")
        #expect(try String(contentsOf: target, encoding: .utf8) == "a,b\n1,Q\n2,y\n")
        // No temporary file left beside the link or the target.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.csv", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("real").path) == ["data.csv"])
    }

    @Test("V10: a file without write permission is not replaced: the save is refused, offering another name, and the file is as it was")
    func readOnlyFile() throws {
        let url = try TableSaveCaseTests.file(Array(Self.text.utf8), "readonly.csv")
        defer {
            chmod(url.path, 0o644)
            try? FileManager.default.removeItem(at: url)
        }
        chmod(url.path, 0o444)
        do {
            try TableSaveCaseTests.save(url, Self.edits(), rows: 2, columns: ["a", "b"])
            Issue.record("saved over a read-only file")
        } catch {
            #expect(error.message.contains("read-only"), "\(error.message)")
            #expect(error.offerSaveAs)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.text)
        var info = stat()
        stat(url.path, &info)
        #expect(info.st_mode & 0o777 == 0o444)
    }

    @Test("V10: w with nothing to save says so and writes nothing (the same inode and modification time); with an edit it saves")
    func nothingToSave() throws {
        let url = try TableSaveCaseTests.file(Array(Self.text.utf8), "nothing.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let before = SaveFile.identity(path: url.path)
        let model = try ViewEditTests.saving(FileInput(path: url.path))
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "nothing to save")
        #expect(SaveFile.identity(path: url.path) == before)
        model.handle(.right)
        ViewEditTests.type(model, "eQ")
        model.handle(.enter)
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n1,xQ\n2,y\n")
    }

    @Test("V10: a file rewritten in place to the same size, its modification time set back (touch -d), is not written over: the save is refused, offering another name")
    func sameSizeTimeSetBack() throws {
        let url = try TableSaveCaseTests.file(Array(Self.text.utf8), "settime.csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let opened = SaveFile.identity(path: url.path)
        var before = stat()
        stat(url.path, &before)
        // Another program changes a byte in place (same inode, same size), then restores the time.
        let fd = open(url.path, O_WRONLY)
        #expect(fd >= 0)
        _ = pwrite(fd, "9", 1, 4)
        close(fd)
        #if canImport(Darwin)
        var times = [before.st_atimespec, before.st_mtimespec]
        #else
        var times = [before.st_atim, before.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        var after = stat()
        stat(url.path, &after)
        #expect(FileIdentity(after) == FileIdentity(before), "size and modification time as they were")
        do {
            try TableSaveCaseTests.save(url, Self.edits(), rows: 2, columns: ["a", "b"], expected: opened)
            Issue.record("saved over a file changed on disk")
        } catch {
            #expect(error.message == "\(url.path): changed on disk since it was opened; not written over (W saves under another name)")
            #expect(error.offerSaveAs)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "a,b\n9,x\n2,y\n")
    }

    @Test("V10: a file renamed away (its status-change time moved, its bytes untouched) still holds the rows the view read; the same bytes changed do not")
    func renameIsNoChange() throws {
        let url = try TableSaveCaseTests.file(Array(Self.text.utf8), "renamed.csv")
        let moved = url.deletingLastPathComponent().appendingPathComponent("renamed-away-\(getpid()).csv")
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: moved)
        }
        let fd = open(url.path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        guard let read = SaveFile.identity(fd: fd) else {
            Issue.record("no identity")
            return
        }
        var before = stat()
        fstat(fd, &before)
        // An editor's save moves the file away (rename), which moves its status-change time.
        usleep(20_000)
        #expect(rename(url.path, moved.path) == 0)
        var after = stat()
        fstat(fd, &after)
        #if canImport(Darwin)
        let ctimeMoved = (after.st_ctimespec.tv_sec, after.st_ctimespec.tv_nsec) != (before.st_ctimespec.tv_sec, before.st_ctimespec.tv_nsec)
        #else
        let ctimeMoved = (after.st_ctim.tv_sec, after.st_ctim.tv_nsec) != (before.st_ctim.tv_sec, before.st_ctim.tv_nsec)
        #endif
        #expect(ctimeMoved, "the rename moved the status-change time (else this test shows nothing)")
        #expect(SaveFile.bytesRead(fd, read: read) == Int64(Self.text.utf8.count), "renamed, its bytes untouched: the rows read are still there")
        // The same file with a byte changed in place is not.
        _ = pwrite(fd, "9", 1, 4)
        #expect(SaveFile.bytesRead(fd, read: read) == nil)
    }

    #if os(Linux)
    @Test("V10: a write that fails (no space left on the device) names the file written, in one line")
    func writeErrorNamesFile() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let writer = TableSaver.Writer(out: fd, source: -1, target: "data.csv", sourceName: "data.csv")
        do {
            try writer.write(Array("a,b\n".utf8))
            try writer.flush()
            Issue.record("written to a full device")
        } catch {
            #expect(error.message == "data.csv: write error: No space left on device")
        }
    }
    #endif
}
