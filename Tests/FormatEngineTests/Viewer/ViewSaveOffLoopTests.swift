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

/// V10: a save runs off the key loop. `w` answers at once; keys are answered while it writes, the
/// status line says how far it is, edits wait for its end, `Esc` stops it with the file left as it
/// was and nothing beside it, and `q` leaves once it is done.
@Suite("Viewer: a save off the key loop", .serialized)
struct ViewSaveOffLoopTests {
    /// A CSV file of `rows` rows in its own folder (so what is left beside it can be listed).
    static func bigFile(rows: Int) throws -> (folder: URL, file: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-saveoff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("big.csv")
        var text = "id,name,amount\n"
        text.reserveCapacity(rows * 32)
        for k in 1...rows { text += "\(k),name \(k),\(k % 997).25\n" }
        try Data(text.utf8).write(to: file)
        return (folder, file)
    }

    /// A view of `input` whose long work (sorts, the save) runs on threads of its own.
    static func background(_ input: any InputProvider) -> ViewModel {
        let loader = ViewLoader(store: RowStore())
        loader.load(input, options: FormatOptions())
        let model = ViewModel(loader: loader, options: FormatOptions(), source: input.name, color: false, width: 240, height: 10,
                              runner: ViewRunner(.background))
        model.enableSaving(input, options: FormatOptions())
        model.saving?.lineFinder?.wait()  // JSON Lines: its lines found, as they are a moment after the view opens
        return model
    }

    /// Refreshes the model until `done` holds, or `seconds` pass. - Returns: whether it held.
    static func until(_ model: ViewModel, seconds: Double = 60, _ done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            _ = model.refresh()
            if done() { return true }
            usleep(2_000)
        }
        return done()
    }

    static func timed(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test("V10: w on a 2M-row file answers at once; keys are answered meanwhile, the status says how far it is, edits wait; the file is saved with the edit")
    func keysAnsweredWhileSaving() throws {
        let (folder, file) = try Self.bigFile(rows: 2_000_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = Self.background(try FileInput(path: file.path))
        // One edit, so the save has something to write: the first row's name.
        model.handle(.right)
        ViewEditTests.type(model, "e")
        model.handle(.end)
        ViewEditTests.type(model, "!")
        model.handle(.enter)
        var slowest = Self.timed { ViewEditTests.type(model, "w") }
        #expect(model.running != nil, "the save runs off the key loop")
        var saw = false
        var refused = false
        while model.running != nil {
            _ = model.refresh()
            if model.running == nil { break }
            for key in [ViewKey.down, .pageDown, .up] {
                slowest = max(slowest, Self.timed { model.handle(key) })
            }
            if model.frame().last?.contains("saving to ") == true && model.frame().last?.contains("(Esc stops it)") == true { saw = true }
            if !refused {
                model.handle(.character("d"))
                refused = model.state.message?.contains("a save is running") == true
            }
            usleep(5_000)
        }
        #expect(slowest < 0.05, "a key waited \(slowest) s")
        #expect(saw, "the status line said the save's progress")
        #expect(refused, "an edit asked for during the save was refused, said")
        #expect(model.state.message?.hasPrefix("saved to ") == true, "\(model.state.message ?? "")")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("id,name,amount\n1,name 1!,1.25\n2,name 2,2.25\n"))
        #expect(text.hasSuffix("2000000,name 2000000,\(2_000_000 % 997).25\n"))
        #expect(!model.unsaved)
    }

    @Test("V10: Esc stops a running save: the file is as it was, nothing is left beside it, the edits still unsaved")
    func escapeStops() throws {
        let (folder, file) = try Self.bigFile(rows: 2_000_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: file)
        let model = Self.background(try FileInput(path: file.path))
        ViewEditTests.type(model, "d")
        ViewEditTests.type(model, "y")  // the first row deleted
        ViewEditTests.type(model, "w")
        #expect(model.running != nil)
        model.handle(.escape)
        #expect(Self.until(model) { model.running == nil })
        #expect(model.state.message == "save stopped: the file was left as it was", "\(model.state.message ?? "")")
        #expect(try Data(contentsOf: file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.csv"])
        #expect(model.unsaved)
        // Saved after all: w again.
        ViewEditTests.type(model, "w")
        #expect(Self.until(model) { model.running == nil })
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("id,name,amount\n2,name 2,"))
    }

    @Test("V10: q while a save runs leaves once it is done; the view ending mid-save stops it and leaves nothing beside the file")
    func quitWhileSaving() throws {
        let (folder, file) = try Self.bigFile(rows: 1_000_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = Self.background(try FileInput(path: file.path))
        ViewEditTests.type(model, "dy")
        ViewEditTests.type(model, "w")
        ViewEditTests.type(model, "q")
        #expect(model.exit == nil)
        #expect(Self.until(model) { model.running == nil })
        #expect(model.exit == .quit)
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("id,name,amount\n2,name 2,"))

        let again = Self.background(try FileInput(path: file.path))
        let before = try Data(contentsOf: file)
        ViewEditTests.type(again, "dy")
        ViewEditTests.type(again, "w")
        again.stop()  // the view ends (Ctrl-C, a signal's way out is SaveSignalTests')
        #expect(again.running?.outcome != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.csv"])
        #expect(try Data(contentsOf: file) == before)
    }
}
