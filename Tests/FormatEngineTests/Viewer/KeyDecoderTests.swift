import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// The bytes a terminal sends, as keys (V2): every split of a sequence across reads gives the same keys.
@Suite("Viewer: key decoding")
struct KeyDecoderTests {
    static let cases: [(String, [ViewKey])] = [
        ("jk", [.character("j"), .character("k")]),
        ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [.up, .down, .right, .left]),
        ("\u{1B}OA\u{1B}OB\u{1B}OH\u{1B}OF", [.up, .down, .home, .end]),
        ("\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[H\u{1B}[F", [.pageUp, .pageDown, .home, .end, .home, .end]),
        ("\u{1B}[<64;10;5M\u{1B}[<65;10;5M\u{1B}[<0;12;3M\u{1B}[<0;12;3m", [.wheelUp, .wheelDown, .click(x: 11, y: 2)]),
        ("\r\u{7F}\t\u{03}\u{1A}", [.enter, .backspace, .tab, .control("c"), .control("z")]),
        ("é東🙂", [.character("é"), .character("東"), .character("🙂")]),
        ("\u{1B}[1;5C", [.right]),
        ("\u{1B}[Z\t", [.backtab, .tab]),  // Shift-Tab, Tab
        ("\u{1B}[99~x", [.character("x")]),  // an unknown key is skipped, not misread
    ]

    @Test("every sequence, fed whole and fed split at every byte, gives the same keys")
    func splitsAnywhere() {
        for (text, keys) in Self.cases {
            let bytes = Array(text.utf8)
            var whole = KeyDecoder()
            #expect(whole.feed(bytes) == keys, "\(text.debugDescription)")
            for cut in 0...bytes.count {
                var split = KeyDecoder()
                let got = split.feed(bytes[..<cut]) + split.feed(bytes[cut...])
                #expect(got == keys, "\(text.debugDescription) cut at \(cut)")
            }
        }
    }

    @Test("Esc alone is a key once nothing follows it; Esc then a key is both")
    func escape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isWaiting)
        #expect(decoder.feed(Array("\u{1B}q".utf8)) == [.escape, .character("q")])
    }

    /// The text of the `paste` keys in `keys`, joined; and the other keys.
    static func pasted(_ keys: [ViewKey]) -> (text: String, others: [ViewKey]) {
        var text = ""
        var others: [ViewKey] = []
        for key in keys {
            if case .paste(let t) = key { text += t } else { others.append(key) }
        }
        return (text, others)
    }

    @Test("V10: a bracketed paste is text, line breaks and key sequences in it too, fed whole or split at any byte; keys around it stay keys")
    func bracketedPaste() {
        let inside = "x\rdyw\u{1B}[Aé東\t\r\nq"
        let bytes = Array("j\u{1B}[200~\(inside)\u{1B}[201~k".utf8)
        var whole = KeyDecoder()
        #expect(whole.feed(bytes) == [.character("j"), .paste(inside), .character("k")])
        for cut in 0...bytes.count {
            var split = KeyDecoder()
            let (text, others) = Self.pasted(split.feed(bytes[..<cut]) + split.feed(bytes[cut...]))
            #expect(text == inside, "cut at \(cut)")
            #expect(others == [.character("j"), .character("k")], "cut at \(cut)")
        }
        // A paste that pauses: what came is text when the decoder is flushed, and so is the rest.
        var paused = KeyDecoder()
        #expect(paused.feed(Array("\u{1B}[200~ab\u{1B}[20".utf8)) == [.paste("ab")])
        #expect(paused.isWaiting)
        #expect(paused.flush() == [.paste("\u{1B}[20")])
        #expect(paused.feed(Array("dyw\u{1B}[201~j".utf8)) == [.paste("dyw"), .character("j")])
    }
}
