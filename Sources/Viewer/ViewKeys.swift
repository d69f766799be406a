import Save
import Input
import Layout
import Options
import Profile
import Render
import Schedule
import Support
import Text
import Transform
/// A key (or mouse event) the view acts on.
package enum ViewKey: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    /// Shift-Tab (`ESC [ Z`).
    case backtab
    /// Ctrl and a letter (`controlKey("c")` is Ctrl-C).
    case control(Character)
    case wheelUp, wheelDown
    /// A left click at a 0-based column and row of the screen.
    case click(x: Int, y: Int)
    /// Text pasted (bracketed paste, `ESC [ 200~` … `ESC [ 201~`): the field editor inserts it,
    /// line breaks as line breaks; elsewhere it does nothing.
    case paste(String)
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters, control keys, the escape
/// sequences of arrows and paging keys (both `CSI` and `SS3` forms), and SGR mouse reports.
/// A sequence split across reads is kept until the rest comes; an `Esc` alone is a key once
/// `flush()` says no more bytes followed it.
/// Text between `ESC [ 200~` and `ESC [ 201~` is one `paste` key (or several, as it comes).
package struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// Inside a bracketed paste: bytes are text until `ESC [ 201~`.
    private var pasting = false
    private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    package init() {}

    /// Whether bytes are held, waiting for the rest of a sequence (the caller then waits briefly
    /// and calls `flush()`).
    package var isWaiting: Bool { !pending.isEmpty }

    /// The keys in `bytes` (with what was held before).
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [ViewKey] {
        pending.append(contentsOf: bytes)
        var keys: [ViewKey] = []
        while !pending.isEmpty {
            if pasting {
                guard let text = takePasted() else { break }
                if !text.isEmpty { keys.append(.paste(text)) }
                continue
            }
            if pending.starts(with: Self.pasteStart) {
                pending.removeFirst(Self.pasteStart.count)
                pasting = true
                continue
            }
            guard let (key, length) = Self.decode(pending[...]) else { break }  // incomplete
            pending.removeFirst(length)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// Pasted text from `pending`, up to the paste's end (which ends pasting) or to what is held
    /// (less a possible start of the end sequence or of a UTF-8 character); nil when nothing can
    /// be taken yet.
    private mutating func takePasted() -> String? {
        var cut = pending.count
        var ended = false
        if let at = Self.find(Self.pasteEnd, in: pending) {
            cut = at
            ended = true
        } else {
            // Hold back a tail that may begin the end sequence, or a character cut short.
            for keep in stride(from: min(Self.pasteEnd.count - 1, pending.count), to: 0, by: -1)
            where Array(pending.suffix(keep)) == Array(Self.pasteEnd.prefix(keep)) {
                cut = pending.count - keep
                break
            }
            var lead = cut
            while lead > 0, lead > cut - 4, pending[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
            if lead > 0, pending[lead - 1] >= 0xC0 {
                let length = pending[lead - 1] >= 0xF0 ? 4 : pending[lead - 1] >= 0xE0 ? 3 : 2
                if cut - (lead - 1) < length { cut = lead - 1 }
            }
        }
        guard cut > 0 || ended else { return nil }
        let text = String(decoding: pending[..<cut], as: UTF8.self)
        pending.removeFirst(cut + (ended ? Self.pasteEnd.count : 0))
        if ended { pasting = false }
        return text
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] && Array(bytes[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }

    /// What is held, as keys, when nothing more came: an `Esc` alone; an unfinished sequence
    /// is dropped.
    package mutating func flush() -> [ViewKey] {
        defer { pending.removeAll() }
        if pasting {
            // A paste that paused: what came so far is text; the rest follows as text too.
            return pending.isEmpty ? [] : [.paste(String(decoding: pending, as: UTF8.self))]
        }
        return pending.first == 0x1B ? [.escape] : []
    }

    /// The key at the start of `bytes` and its length; nil when more bytes are needed. A
    /// sequence the view does not know is consumed as nil.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (ViewKey?, Int)? {
        let b = bytes[bytes.startIndex]
        switch b {
        case 0x1B:
            guard bytes.count > 1 else { return nil }
            let next = bytes[bytes.startIndex + 1]
            if next == UInt8(ascii: "[") { return csi(bytes) }
            if next == UInt8(ascii: "O") {
                guard bytes.count > 2 else { return nil }
                let key: ViewKey? = switch bytes[bytes.startIndex + 2] {
                case UInt8(ascii: "A"): .up
                case UInt8(ascii: "B"): .down
                case UInt8(ascii: "C"): .right
                case UInt8(ascii: "D"): .left
                case UInt8(ascii: "H"): .home
                case UInt8(ascii: "F"): .end
                default: nil
                }
                return (key, 3)
            }
            return (.escape, 1)  // Esc, then another key
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(b + 0x60))), 1)
        case 0x00..<0x20: return (nil, 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(b))), 1)
        default:
            // UTF-8: the lead byte says the length.
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes.prefix(length), as: UTF8.self)
            guard b >= 0xC0, text.count == 1, let character = text.first else { return (nil, length) }
            return (.character(character), length)
        }
    }

    /// `ESC [` … a final byte in `@`…`~`.
    private static func csi(_ bytes: ArraySlice<UInt8>) -> (ViewKey?, Int)? {
        let start = bytes.startIndex
        var end = start + 2
        while end < bytes.endIndex, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.endIndex else { return bytes.count > 64 ? (nil, bytes.count) : nil }
        let final = bytes[end]
        let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let length = end - start + 1
        if body.hasPrefix("<") {
            // SGR mouse: ESC [ < button ; x ; y M (press) or m (release), 1-based.
            let parts = body.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard parts.count == 3, final == UInt8(ascii: "M") else { return (nil, length) }
            switch parts[0] {
            case 64: return (.wheelUp, length)
            case 65: return (.wheelDown, length)
            case 0: return (.click(x: parts[1] - 1, y: parts[2] - 1), length)
            default: return (nil, length)
            }
        }
        switch final {
        case UInt8(ascii: "A"): return (.up, length)
        case UInt8(ascii: "B"): return (.down, length)
        case UInt8(ascii: "C"): return (.right, length)
        case UInt8(ascii: "D"): return (.left, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "Z"): return (.backtab, length)
        case UInt8(ascii: "~"):
            switch body.split(separator: ";").first.map(String.init) ?? "" {
            case "1", "7": return (.home, length)
            case "4", "8": return (.end, length)
            case "5": return (.pageUp, length)
            case "6": return (.pageDown, length)
            default: return (nil, length)
            }
        default: return (nil, length)
        }
    }
}

/// The view's keys and what they do: the `?` screen, `--help` and the man page list these (V2).
package enum ViewHelp {
    package static let keys: [(keys: String, meaning: String)] = [
        ("↓ ↑ j k", "next / previous row"),
        ("PgDn PgUp f b", "next / previous page"),
        ("g G Home End", "first / last row"),
        ("t", "the last row, following new rows as they come (as tail -f)"),
        ("→ ← l h", "next / previous column"),
        ("0 $", "first / last column"),
        ("F then 0–9", "freeze that many leading columns"),
        ("s", "sort by the column: ascending, descending, input order"),
        ("< > =", "narrow / widen the column; = computed widths"),
        ("Enter", "the row's detail sheet (↑ ↓ rows, Esc back)"),
        ("/ text Enter", "find text (lower case: any case); n N next / previous"),
        ("& text Enter", "show only rows containing text; & Enter shows all"),
        ("Space", "select the row (✓) and move down"),
        ("a A", "select every row shown / none"),
        ("e", "edit the field: Enter keeps, Esc cancels (in a sheet Enter too)"),
        ("Tab Shift-Tab", "sheet: next / previous field; editor: keep, edit the next / previous"),
        ("← → Ctrl-A Ctrl-E", "editor: move a character; to the start / end"),
        ("Backspace Ctrl-D", "editor: delete before / at the cursor (a whole character: a flag, an emoji)"),
        ("Ctrl-W Ctrl-U Ctrl-K", "editor: delete the word before / to the start / to the end"),
        ("Ctrl-O  Ctrl-V Tab", "editor: a line break / a tab in the value (a paste is text)"),
        ("Esc Ctrl-G", "editor: cancel, the field as it was"),
        ("+", "add a row after this one, opened in its sheet"),
        ("d", "delete the selected rows shown, or this one (y confirms; d again keeps them)"),
        ("J K", "move the row down / up"),
        ("u Ctrl-R", "undo / redo"),
        ("w Ctrl-S  W", "save to the file (untouched rows kept as they were) / save as"),
        ("q", "quit, writing the selected rows (asks when edits are unsaved)"),
        ("Ctrl-C", "quit without writing (exit 130; twice with edits unsaved or typed)"),
        ("M", "what the status line said, whole (↑ ↓ scroll)"),
        ("Esc", "stop a sort, filter or search; clear the search; leave a sheet"),
        ("mouse", "wheel scrolls; click a heading to sort, a row to open it"),
    ]
}
