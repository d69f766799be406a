import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: saving under a name (`W`). The view then edits that file: `w` saves there, and `W` to the
/// same name saves again. A pipe's rows are written in the delimiter they were read in, with a
/// header only when they had one; a `.gz` name is refused (tablefmt does not write gzip).
@Suite("Viewer: saving under a name")
struct ViewEditSaveAsTests {
    static func url(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-saveas-\(getpid())-\(name)")
    }

    /// A view of `input` read with `options`, every row read, that can save.
    static func saving(_ input: any InputProvider, options: FormatOptions) -> ViewModel {
        let loader = ViewLoader(store: RowStore())
        loader.load(input, options: options)
        let model = ViewModel(loader: loader, options: options, source: input.name, color: false, width: 64, height: 8)
        model.enableSaving(input, options: options)
        model.saving?.lineFinder?.wait()  // JSON Lines: its lines found, as they are a moment after the view opens
        return model
    }

    static func edit(_ model: ViewModel, _ text: String) {
        ViewEditTests.type(model, "e")
        ViewEditTests.type(model, text)
        model.handle(.enter)
    }

    static func saveAs(_ model: ViewModel, _ url: URL) {
        ViewEditTests.type(model, "W")
        ViewEditTests.type(model, url.path)
        model.handle(.enter)
    }

    @Test("V10: after W name, w saves to that name, every edit since the file was opened; the file read is left as it was")
    func wAfterSaveAs() throws {
        let original = Self.url("orig.csv"), other = Self.url("other.csv")
        try Data("a,b\n1,x\n2,y\n".utf8).write(to: original)
        defer { try? FileManager.default.removeItem(at: original); try? FileManager.default.removeItem(at: other) }
        let model = try ViewEditTests.saving(FileInput(path: original.path))
        model.handle(.right)
        Self.edit(model, "1")
        Self.saveAs(model, other)
        #expect(model.state.message == "saved to \(other.path)")
        model.handle(.down)
        Self.edit(model, "2")
        ViewEditTests.type(model, "w")
        #expect(model.state.message == "saved to \(other.path)")
        #expect(try String(contentsOf: other, encoding: .utf8) == "a,b\n1,x1\n2,y2\n")
        #expect(try String(contentsOf: original, encoding: .utf8) == "a,b\n1,x\n2,y\n")
        // W to the same name again: the file the view edits, saved again.
        Self.edit(model, "3")
        Self.saveAs(model, other)
        #expect(model.state.message == "saved to \(other.path)")
        #expect(try String(contentsOf: other, encoding: .utf8) == "a,b\n1,x1\n2,y23\n")
    }

    @Test("V10: a pipe's rows saved under a name keep their delimiter (tab, semicolon) and --no-header; w and W then save there again; a name taken by another file is refused")
    func pipeKeepsDialect() throws {
        let cases: [(text: String, header: Bool, saved: String)] = [
            ("a\tb\n1\tx\n2\ty\n", true, "a\tb\n1\txQ\n2\ty\n"),
            ("a;b\n1;x\n2;y\n", true, "a;b\n1;xQ\n2;y\n"),
            ("1,x\n2,y\n", false, "1,xQ\n2,y\n"),
        ]
        for (k, c) in cases.enumerated() {
            let url = Self.url("pipe-\(k).txt")
            defer { try? FileManager.default.removeItem(at: url) }
            var options = FormatOptions()
            options.header = c.header
            let model = Self.saving(MemoryInput(Array(c.text.utf8), name: "<stdin>", isRereadable: false), options: options)
            model.handle(.right)
            Self.edit(model, "Q")
            Self.saveAs(model, url)
            #expect(model.state.message == "saved to \(url.path)", "\(c.text.debugDescription)")
            #expect(try String(contentsOf: url, encoding: .utf8) == c.saved, "\(c.text.debugDescription)")
            model.handle(.down)
            ViewEditTests.type(model, "dy")
            ViewEditTests.type(model, "w")
            #expect(model.state.message == "saved to \(url.path)")
            #expect(try String(contentsOf: url, encoding: .utf8) == String(c.saved.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"))
        }
        let taken = Self.url("taken.csv")
        try Data("keep\n".utf8).write(to: taken)
        defer { try? FileManager.default.removeItem(at: taken) }
        let model = Self.saving(MemoryInput(Array("a,b\n1,x\n".utf8), name: "<stdin>", isRereadable: false), options: FormatOptions())
        Self.edit(model, "Q")
        Self.saveAs(model, taken)
        #expect(model.state.message?.contains("already exists") == true)
        #expect(try String(contentsOf: taken, encoding: .utf8) == "keep\n")
    }

    @Test("V10: a .gz name is refused, saying so; nothing is written")
    func gzipNameRefused() throws {
        let url = Self.url("out.csv.gz")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = Self.saving(MemoryInput(Array("a,b\n1,x\n".utf8), name: "<stdin>", isRereadable: false), options: FormatOptions())
        Self.edit(model, "Q")
        Self.saveAs(model, url)
        #expect(model.state.message?.contains("does not write gzip") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
