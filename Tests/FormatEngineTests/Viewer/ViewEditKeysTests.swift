import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// V10, V2, issue 44: the editor's keys as `?` and the hints promise them. `Tab` and `Shift-Tab`
/// keep the text and edit the next or previous field (a tab in the value is `Ctrl-V Tab`); the
/// sheet shows which field is focused; Backspace takes a whole character (a flag, an emoji
/// sequence) however the terminal sent it; every editor key is listed; the `?` list and a
/// message longer than the screen can be read whole.
@Suite("Viewer: the editor's keys")
struct ViewEditKeysTests {
    static let csv = "name,qty,note\nApple,3,red\nBanana,12,yellow\n"

    static func editor(_ model: ViewModel) -> FieldEditor? {
        if case .edit(.field(let editor)) = model.state.mode { return editor }
        return nil
    }

    @Test("V10: in a sheet, Tab in the editor keeps the text and edits the next field, Shift-Tab the previous; the sheet stays open")
    func tabMovesInSheet() throws {
        let model = try ViewEditTests.view(Self.csv, width: 60, height: 10)
        model.handle(.enter)
        ViewEditTests.type(model, "e")
        #expect(Self.editor(model)?.name == "Name")
        ViewEditTests.type(model, "X")
        model.handle(.tab)
        #expect(Self.editor(model)?.name == "Qty")
        #expect(Self.editor(model)?.sheet != nil, "still in the sheet")
        #expect(ViewEditTests.fields(model, 0) == ["AppleX", "3", "red"])
        model.handle(.tab)
        #expect(Self.editor(model)?.name == "Note")
        model.handle(.backtab)
        model.handle(.backtab)
        #expect(Self.editor(model)?.name == "Name")
        #expect(String(Self.editor(model)?.text ?? []) == "AppleX")
        model.handle(.escape)
        #expect(model.state.mode == .detail(scroll: 0))
        // Out of the editor, Tab and Shift-Tab move the focus; the wrap goes both ways.
        model.handle(.backtab)
        #expect(model.state.columns[model.state.focus].heading == "Note")
        model.handle(.tab)
        #expect(model.state.columns[model.state.focus].heading == "Name")
    }

    @Test("V10: in the table, Tab in the editor keeps the text and edits the next column's field of the same row")
    func tabMovesInTable() throws {
        let model = try ViewEditTests.view(Self.csv, width: 60, height: 10)
        model.handle(.down)
        ViewEditTests.type(model, "e")
        model.handle(.control("u"))
        ViewEditTests.type(model, "Kiwi")
        model.handle(.tab)
        #expect(Self.editor(model)?.name == "Qty")
        #expect(Self.editor(model)?.sheet == nil)
        model.handle(.enter)
        #expect(ViewEditTests.fields(model, 1) == ["Kiwi", "12", "yellow"])
        #expect(model.state.mode == .table)
    }

    @Test("V10: Ctrl-V then Tab puts a tab in the value; Ctrl-V is undone by any other key")
    func literalTab() throws {
        let model = try ViewEditTests.view(Self.csv, width: 60, height: 10)
        ViewEditTests.type(model, "e")
        model.handle(.control("v"))
        model.handle(.tab)
        ViewEditTests.type(model, "x")
        model.handle(.control("v"))
        ViewEditTests.type(model, "y")
        model.handle(.enter)
        #expect(ViewEditTests.fields(model, 0)[0] == "Apple\txy")
    }

    /// Characters whose scalars a terminal sends one by one: flags, ZWJ sequences, skin tones,
    /// combining marks, and plain letters.
    static let clusters = ["🇫🇷", "🇯🇵", "👩‍💻", "👨‍👩‍👧‍👦", "👍🏽", "é", "e\u{301}", "ñ", "a", "東", "🏳️‍🌈", "x"]

    @Test("V10: typed a scalar at a time (as a terminal sends keys), a line of flags and emoji sequences is its characters, and Backspace takes one character each time (seeded random lines)")
    func backspaceByCharacter() throws {
        var rng = SplitMix64(seed: 44)
        for round in 0..<200 {
            let model = try ViewEditTests.view(Self.csv, width: 60, height: 10)
            ViewEditTests.type(model, "e")
            model.handle(.control("u"))
            let text = (0..<(1 + rng.below(8))).map { _ in Self.clusters[rng.below(Self.clusters.count)] }.joined()
            var decoder = KeyDecoder()
            for scalar in text.unicodeScalars {
                for key in decoder.feed(Array(String(scalar).utf8)) { model.handle(key) }
            }
            let expected = Array(text)
            #expect(Self.editor(model).map { $0.text } == expected, "round \(round): \(text)")
            #expect(Self.editor(model)?.cursor == expected.count)
            // One Backspace, one whole character gone, whatever it is made of.
            for k in stride(from: expected.count, to: 0, by: -1) {
                model.handle(.backspace)
                #expect(Self.editor(model).map { String($0.text) } == String(expected.prefix(k - 1)), "round \(round): \(text) at \(k)")
            }
        }
    }

    @Test("V10: the editor's keys are in the ? list (and so in --help and the man page, which print the same list)")
    func editorKeysListed() {
        let listed = ViewHelp.keys.map { $0.keys + " " + $0.meaning }.joined(separator: "\n")
        for key in ["Tab", "Shift-Tab", "Ctrl-O", "Ctrl-V Tab", "Ctrl-W", "Ctrl-U", "Ctrl-K", "Ctrl-A", "Ctrl-E", "Ctrl-G", "Ctrl-D", "Backspace", "M"] {
            #expect(listed.contains(key), "\(key)")
        }
    }

    @Test("V2: the ? list scrolls on a short screen, so every key can be read; any other key returns")
    func helpScrolls() throws {
        let model = try ViewEditTests.view(Self.csv, width: 100, height: 10)
        ViewEditTests.type(model, "?")
        var seen = Set<String>()
        for _ in 0..<(ViewHelp.keys.count + 5) {
            for line in ViewEditTests.plain(model) { seen.insert(line) }
            model.handle(.down)
        }
        for key in ViewHelp.keys { #expect(seen.contains { $0.hasPrefix(key.keys) && $0.hasSuffix(key.meaning) }, "\(key.keys)") }
        #expect(model.state.mode == .help)
        ViewEditTests.type(model, "x")
        #expect(model.state.mode == .table)
    }

    @Test("V2: a message longer than the status line says M shows it; M shows every word of it, wrapped to the width")
    func longMessageReadable() throws {
        let file = ViewFileChangedTests.url("long.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("n,v\n1,a\n".utf8).write(to: file)
        let model = ViewEditTests.saving(try FileInput(path: file.path))
        model.resize(width: 40, height: 10)
        model.handle(.right)
        ViewEditSaveAsTests.edit(model, "Z")
        try FileManager.default.removeItem(at: file)
        ViewEditTests.type(model, "w")
        let message = try #require(model.state.message)
        #expect(message.count > 40)
        model.handle(.escape)  // out of the name prompt; the message is in the log
        model.state.message = message
        #expect(ViewEditTests.plain(model).last?.hasSuffix("M: all of it") == true, "\(ViewEditTests.plain(model).last ?? "")")
        ViewEditTests.type(model, "M")
        let page = ViewEditTests.plain(model).dropFirst().dropLast().joined(separator: " ")
        for word in message.split(separator: " ") { #expect(page.contains(word), "\(word)") }
        #expect(ViewEditTests.plain(model).allSatisfy { $0.count <= 40 })
        ViewEditTests.type(model, "x")
        #expect(model.state.mode == .table)
    }

    @Test("V4: the sheet draws the focused field's lines, and only them, in the current row's style (a long value wrapped over several lines)")
    func sheetHighlightsFocus() throws {
        let long = String(repeating: "word ", count: 20)
        let model = try ViewStateTests.view("name,qty,note\nApple,3,\(long)\n", width: 40, height: 20, color: true)
        model.handle(.enter)
        let current = model.state.styles.current
        for (heading, lines) in [("note", 3...9), ("qty", 1...1), ("name", 1...1)] {
            for _ in model.state.columns.indices where model.state.columns[model.state.focus].heading.lowercased() != heading { model.handle(.tab) }
            try #require(model.state.columns[model.state.focus].heading.lowercased() == heading, "Tab reaches \(heading)")
            let frame = model.frame().dropLast()
            let marked = frame.filter { $0.hasPrefix(current) }.map(ViewStateTests.strip)
            #expect(lines.contains(marked.count), "\(heading): \(marked)")
            let first = try #require(marked.first)
            if heading != "name" { #expect(first.lowercased().hasPrefix(heading), "\(heading): \(first)") }
            // The other lines are not marked.
            #expect(frame.filter { !$0.hasPrefix(current) }.allSatisfy { !$0.contains(current) })
        }
    }
}
