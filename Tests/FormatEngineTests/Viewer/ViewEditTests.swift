import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10: editing in the view, as keys and frames (no terminal).
@Suite("Viewer: editing keys and frames")
struct ViewEditTests {
    static let csv = "name,qty\nApple,3\nBanana,12\nCherry,7\n"

    static func view(_ csv: String = Self.csv, width: Int = 64, height: Int = 8) throws -> ViewModel {
        try ViewStateTests.view(csv, width: width, height: height)
    }

    static func type(_ model: ViewModel, _ text: String) {
        for c in text { model.handle(.character(c)) }
    }

    static func plain(_ model: ViewModel) -> [String] { ViewStateTests.plain(model) }

    /// A view of `input`, every row read, that can save (as the executable sets it up).
    static func saving(_ input: any InputProvider) -> ViewModel {
        let loader = ViewLoader(store: RowStore())
        loader.load(input, options: FormatOptions())
        let model = ViewModel(loader: loader, options: FormatOptions(), source: input.name, color: false, width: 64, height: 8)
        model.enableSaving(input, options: FormatOptions())
        model.saving?.lineFinder?.wait()  // JSON Lines: its lines found, as they are a moment after the view opens
        return model
    }

    /// Row `row` of the view's fields as edited.
    static func fields(_ model: ViewModel, _ row: Int) -> [String] {
        model.rows.record(model.state.id(at: row)).strings
    }

    @Test("V10: e edits the focused field; Enter keeps it, marked ~ at the left, counted in the status line")
    func editKeeps() throws {
        let model = try Self.view()
        model.handle(.down)
        model.handle(.right)
        model.handle(.character("e"))
        #expect(Self.plain(model).last == "Qty: 12")
        model.handle(.backspace)
        model.handle(.backspace)
        Self.type(model, "40")
        model.handle(.enter)
        #expect(Self.plain(model) == [
            "   Name    Qty",
            "   ──────  ───",
            "   Apple     3",
            " ~ Banana   40",
            "   Cherry    7",
            "",
            "",
            "row 2 of 3 · Qty · 1 changed · unsaved · t.csv            ? keys",
        ])
    }

    @Test("V10: Esc cancels the editor: nothing changes, no mark")
    func editCancels() throws {
        let model = try Self.view()
        model.handle(.character("e"))
        Self.type(model, "zzz")
        model.handle(.escape)
        #expect(Self.fields(model, 0) == ["Apple", "3"])
        #expect(Self.plain(model)[2] == "Apple     3")
        #expect(!model.unsaved)
    }

    @Test("V10: the editor's keys: cursor moves, Home and End, Ctrl-W deletes a word, Ctrl-O a line break shown as ↵")
    func editorKeys() throws {
        let model = try Self.view()
        model.handle(.character("e"))
        model.handle(.end)
        Self.type(model, " pie tart")
        model.handle(.control("w"))
        #expect(Self.plain(model).last == "Name: Apple pie")
        model.handle(.home)
        Self.type(model, ">")
        model.handle(.right)
        model.handle(.control("o"))
        #expect(Self.plain(model).last == "Name: >A↵pple pie")
        model.handle(.enter)
        #expect(Self.fields(model, 0) == [">A\npple pie ", "3"])
    }

    @Test("V10: + adds an empty row after the current one and opens its sheet; e there edits the field, Tab the next")
    func addRow() throws {
        let model = try Self.view()
        Self.type(model, "+")
        guard case .detail = model.state.mode else { Issue.record("no sheet"); return }
        #expect(model.state.current == 1)
        Self.type(model, "e")
        Self.type(model, "Date")
        model.handle(.enter)
        model.handle(.tab)
        model.handle(.enter)  // Enter in a sheet edits too
        Self.type(model, "9")
        model.handle(.enter)
        model.handle(.escape)
        #expect(Self.fields(model, 1) == ["Date", "9"])
        #expect(Self.plain(model)[3] == " + Date      9")
        #expect(Self.plain(model).last?.contains("1 added · unsaved") == true)
        #expect((0..<4).map { model.state.id(at: $0) } == [0, -1, 1, 2])
    }

    @Test("V10: d asks, y deletes (struck out, marked −), u undoes and Ctrl-R redoes; d on deleted rows keeps them")
    func deleteUndoRedo() throws {
        let model = try Self.view()
        model.handle(.down)
        Self.type(model, "d")
        #expect(Self.plain(model).last?.hasPrefix("delete this row? y deletes") == true)
        Self.type(model, "y")
        #expect(Self.plain(model)[3] == " − Banana   12")
        #expect(model.frame()[3].contains("\u{1B}[9m"))
        model.handle(.right)
        #expect(Self.plain(model).last?.contains("1 deleted · unsaved") == true)
        Self.type(model, "u")
        #expect(Self.plain(model)[3] == "Banana   12")
        model.handle(.control("r"))
        #expect(Self.plain(model)[3] == " − Banana   12")
        Self.type(model, "d")
        #expect(!model.state.editing.edits.deleted.contains(1))
        // Checked rows are deleted together.
        model.handle(.character(" "))
        model.handle(.character(" "))
        Self.type(model, "dy")
        #expect(model.state.editing.edits.deleted == [1, 2])
    }

    @Test("V10: J and K move the current row down and up, in the file's order; under a sort they say why not")
    func moveRows() throws {
        let model = try Self.view()
        Self.type(model, "J")
        #expect(ViewStateTests.order(model) == [1, 0, 2])
        #expect(model.state.current == 1)
        Self.type(model, "J")
        #expect(ViewStateTests.order(model) == [1, 2, 0])
        Self.type(model, "KK")
        #expect(ViewStateTests.order(model) == [0, 1, 2])
        Self.type(model, "s")
        Self.type(model, "J")
        #expect(model.state.message?.contains("clear the sort") == true)
    }

    @Test("V10: editing a sorted view edits the record underneath; the sort's order is the rows' ids")
    func editSorted() throws {
        let model = try Self.view()
        model.handle(.right)
        Self.type(model, "s")  // by qty ascending: Apple 3, Cherry 7, Banana 12
        model.handle(.down)
        #expect(model.state.id(at: 1) == 2)
        Self.type(model, "e")
        model.handle(.control("u"))
        Self.type(model, "8")
        model.handle(.enter)
        #expect(model.rows.record(2).strings == ["Cherry", "8"])
        #expect(model.state.editing.edits.field(2, 1) == Array("8".utf8))
    }

    @Test("V10: a value that does not fit its column's kind is kept as typed, marked ! beside its ~, and said")
    func misfit() throws {
        let model = try Self.view()
        model.handle(.right)
        Self.type(model, "e")
        model.handle(.control("u"))
        Self.type(model, "lots")
        model.handle(.enter)
        #expect(Self.fields(model, 0) == ["Apple", "lots"])
        #expect(Self.plain(model)[2].hasPrefix(" ~! Apple"))
        #expect(model.state.message == "kept as text: Qty holds numbers")
        // Undone, the field is as read and the mark goes; redone, it comes back.
        Self.type(model, "u")
        #expect(Self.plain(model)[2].hasPrefix("   Apple") || Self.plain(model)[2].hasPrefix("Apple"), "\(Self.plain(model)[2])")
        #expect(model.state.editing.misfits.isEmpty)
        model.handle(.control("r"))
        #expect(Self.plain(model)[2].hasPrefix(" ~! Apple"))
    }

    @Test("V10: a filter counts the rows added in the view among the rows it was made from")
    func filterCountsAdded() throws {
        let model = try Self.view()
        for name in ["Amy", "Kim"] {
            Self.type(model, "+")
            Self.type(model, "e")
            Self.type(model, name)
            model.handle(.enter)
            model.handle(.escape)
        }
        #expect(model.state.count == 5, "\(Self.plain(model))")
        Self.type(model, "&m")
        model.handle(.enter)
        #expect(Self.plain(model).last?.contains("filter m: 2 of 5 rows") == true, "\(Self.plain(model).last ?? "")")
    }

    @Test("V10: q with unsaved edits asks (Esc stays); Ctrl-C asks once, and quits without saving when pressed again")
    func quitAsks() throws {
        let model = try Self.view()
        Self.type(model, "e")
        Self.type(model, "!")
        model.handle(.enter)
        Self.type(model, "q")
        #expect(model.exit == nil)
        #expect(Self.plain(model).last?.hasPrefix("unsaved changes: quit without saving? y quits without saving") == true)
        model.handle(.escape)
        #expect(model.exit == nil)
        model.handle(.control("c"))
        #expect(model.exit == nil)
        #expect(Self.plain(model).last?.hasPrefix("unsaved changes: Ctrl-C again") == true)
        model.handle(.control("c"))
        #expect(model.exit == .interrupt)
        // Nothing edited: q and Ctrl-C leave at once.
        let clean = try Self.view()
        Self.type(clean, "q")
        #expect(clean.exit == .quit)
    }

    @Test("V10: w saves the file (only the changed line differs), the marks start again, q then leaves; a JSON document says it is read-only")
    func saveFromTheView() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-viewedit-\(getpid()).csv")
        try Data("name,qty\r\nApple,3\r\nBanana,12\r\n\"Cherry\",7".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try Self.saving(FileInput(path: url.path))
        model.handle(.right)
        Self.type(model, "e")
        Self.type(model, "0")
        model.handle(.enter)
        Self.type(model, "G+")
        Self.type(model, "e")
        Self.type(model, "Date, dried")
        model.handle(.enter)
        model.handle(.escape)
        Self.type(model, "w")
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "name,qty\r\nApple,30\r\nBanana,12\r\n\"Cherry\",7\r\n\"Date, dried\",")
        #expect(!model.unsaved)
        Self.type(model, "q")
        #expect(model.exit == .quit)

        let json = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-viewedit-\(getpid()).json")
        try Data("[{\"a\":1},{\"a\":2}]".utf8).write(to: json)
        defer { try? FileManager.default.removeItem(at: json) }
        let jsonModel = try Self.saving(FileInput(path: json.path))
        Self.type(jsonModel, "e")
        #expect(jsonModel.state.message == "a JSON document is read-only (JSON Lines can be edited)")
        #expect(jsonModel.state.mode == .table)
    }

    @Test("V10: a view of a pipe saves only under a name (w asks for one): its rows as edited, as CSV, the deleted ones left out")
    func pipeSavesAs() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tablefmt-viewedit-pipe-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = Self.saving(MemoryInput(Self.csv, name: "<stdin>", isRereadable: false))
        Self.type(model, "e")
        model.handle(.control("u"))
        Self.type(model, "Apricot, dried")
        model.handle(.enter)
        model.handle(.down)
        Self.type(model, "dy")
        Self.type(model, "w")
        #expect(model.state.mode == .edit(.saveAs([], quit: false)))
        #expect(Self.plain(model).dropLast().last == "read from a pipe: W saves it under a name")
        Self.type(model, url.path)
        model.handle(.enter)
        #expect(model.state.message == "saved to \(url.path)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "name,qty\n\"Apricot, dried\",3\nCherry,7\n")
        // The name is now the file the view edits: W to it again saves there.
        Self.type(model, "W")
        Self.type(model, url.path)
        model.handle(.enter)
        #expect(model.state.message == "nothing to save")
    }
}
