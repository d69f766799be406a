import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// Markdown's escaping (O4): what GFM will show as exactly the text, with as few escapes as that
/// takes, for table cells, list labels, headings and paragraphs.
extension MarkdownRenderer {

    /// Text for inside a table cell (or a heading): exact, one line, trimmed spaces kept.
    package static func cell(_ text: String, table: Bool = true) -> String {
        var out = inline(text, table: table)
        // GFM trims a cell's edges: keep the text's own spaces as character references.
        var leading = 0
        while out.hasPrefix(" ") { out.removeFirst(); leading += 1 }
        var trailing = 0
        while out.hasSuffix(" ") { out.removeLast(); trailing += 1 }
        if leading == 0 && trailing == 0 { return out }  // no copy of a long heading (E5)
        return String(repeating: "&#32;", count: leading) + out + endOfURL(out, before: trailing) + String(repeating: "&#32;", count: trailing)
    }

    /// An empty HTML comment, which renders as nothing, between a URL and the spaces kept after
    /// it as `&#32;`: GFM's autolink would otherwise take them into the link.
    package static func endOfURL(_ text: String, before trailing: Int) -> String {
        guard trailing > 0, let lastWord = text.split(separator: " ").last else { return "" }
        let scalars = Array(lastWord.unicodeScalars)
        for k in scalars.indices where ["h", "w", "f"].contains(scalars[k]) {
            if urlEnd(scalars, at: k) == scalars.count { return "<!---->" }
        }
        return ""
    }

    /// Inline text at the end of a line, its own trailing spaces kept as character references
    /// (GFM would trim them).
    package static func trailingSpacesKept(_ text: String) -> String {
        var out = text
        var trailing = 0
        while out.hasSuffix(" ") { out.removeLast(); trailing += 1 }
        return out + endOfURL(out, before: trailing) + String(repeating: "&#32;", count: trailing)
    }

    /// A list report's label (W8), for `- **Label:** value`: inline text that stays inside the
    /// strong emphasis around it. Every `*` run in it that could open or close emphasis is
    /// escaped (the `**` around it are partners for any of them); a `\` before the `:` is doubled;
    /// a code span, link or HTML that would reach into the value is escaped at its start (the
    /// value is read for that only; nil, a value too long to read again: every such start is
    /// escaped); leading spaces, which would stop `**` opening, are `&#32;`.
    package static func label(_ text: String, value: String?) -> String {
        let label = Array(text.unicodeScalars)
        let after = value.map { Array(":** \($0)".unicodeScalars) } ?? [":"]
        var out = inline(label + after, table: false, wholeText: value != nil, end: label.count, strong: true)
        var leading = 0
        while out.hasPrefix(" ") { out.removeFirst(); leading += 1 }
        return String(repeating: "&#32;", count: leading) + out
    }

    /// Text for an ATX heading (`### `, `#### `): inline text whose closing `#`s, which GFM would
    /// take for the heading's optional closing sequence, are escaped.
    package static func heading(_ text: String) -> String {
        let out = cell(text, table: false)
        var scalars = Array(out.unicodeScalars)
        var k = scalars.count
        while k > 0 && scalars[k - 1] == "#" { k -= 1 }
        if k < scalars.count && (k == 0 || scalars[k - 1] == " ") && !(k > 0 && k >= 2 && scalars[k - 2] == "\\") {
            scalars.insert("\\", at: k)
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// Text for a line of its own (a note, a caption): inline text whose start is not read as a
    /// block marker (`#`, `>`, `- `, `+ `, `* `, `1. `, `1) `, a line of `=` or `-`).
    package static func paragraph(_ text: String) -> String {
        var out = inline(text, table: false)
        guard let first = out.unicodeScalars.first else { return out }
        let rest = out.unicodeScalars.dropFirst()
        let spaceOrEnd = rest.first.map { $0 == " " || $0 == "\t" } ?? true
        if first == "#" || first == ">" || ("-+*".unicodeScalars.contains(first) && spaceOrEnd)
            || (("=-").unicodeScalars.contains(first) && out.unicodeScalars.allSatisfy({ $0 == first })) {
            out = "\\" + out
        } else if first.properties.numericType != nil, first.isASCII {
            let digits = out.unicodeScalars.prefix { $0.isASCII && $0.properties.numericType != nil }
            let after = out.unicodeScalars.dropFirst(digits.count)
            if digits.count <= 9, let mark = after.first, mark == "." || mark == ")", after.dropFirst().first.map({ $0 == " " }) ?? true {
                var scalars = Array(out.unicodeScalars)
                scalars.insert("\\", at: digits.count)
                out = ""
                out.unicodeScalars.append(contentsOf: scalars)
            }
        }
        return out
    }

    /// Text for a Markdown line (O4): exactly what GFM will show as the text, with as few escapes
    /// as that takes. Escaped only where they would otherwise change the rendering: `|` always
    /// (a table's column separator); `\` before ASCII punctuation, a control or a line break (where
    /// it would escape what follows); `*`, `_` and `~` in a run that could open or close emphasis
    /// or strikethrough (GFM's flanking rules: `snake_case` and `a * b` are left alone); a
    /// backtick run only when a run as long follows (a code span); `[` only when a `]` follows (a
    /// link); `<` only before a letter, `/`, `!` or `?` (HTML or an autolink); `&` only where it
    /// starts an entity (`&amp;`, `&#35;`). A line break (LF or CR LF) is `<br>`; a control is its
    /// visible escape (O5), a lone CR `\r` as in plain text. A URL GFM autolinks (`https://`,
    /// `http://`, `www.` up to a space or `<`) comes out byte for byte, as GFM reads it literally
    /// (only `|` escaped in a table, where the table takes its escape first).
    /// - Parameter table: whether the text is inside a table cell (`|` is then escaped).
    package static func inline(_ text: String, table: Bool = true) -> String {
        var copy = text
        let plain = copy.withUTF8 { bytes in !mayNeedEscaping(bytes) }
        if plain { return text }
        if text.utf8.count > pieceBytes { return inlineInPieces(text, table: table) }
        return inline(Array(text.unicodeScalars), table: table, wholeText: true)
    }

    /// Texts longer than this are escaped a piece at a time (P2: no array of every scalar).
    package static let pieceBytes = 1 << 20

    /// `inline` of a long text, a piece (about `pieceBytes`, ending after a space) at a time. A
    /// construct could span pieces, so each piece is escaped as if its partner were there: every
    /// run that could open emphasis, every backtick, every `[`, every `<` before a letter.
    package static func inlineInPieces(_ text: String, table: Bool) -> String {
        var out = ""
        var piece: [Unicode.Scalar] = []
        piece.reserveCapacity(pieceBytes)
        for scalar in text.unicodeScalars {
            piece.append(scalar)
            if scalar == " " && piece.count >= pieceBytes / 4 {
                out += inline(piece, table: table, wholeText: false)
                piece.removeAll(keepingCapacity: true)
            }
        }
        out += inline(piece, table: table, wholeText: false)
        return out
    }

    /// `inline` of scalars: `wholeText` false for a piece of a longer text (see `inlineInPieces`).
    /// - Parameters:
    ///   - end: where the text ends (nil: the end of `s`); the scalars after it are what the line
    ///     holds after the text (a list report's `:** value`), only read to see whether a code
    ///     span, a link or HTML would reach into them.
    ///   - strong: the text sits between `**` and `:**` (a list report's label): see
    ///     `DelimiterRuns`.
    package static func inline(_ s: [Unicode.Scalar], table: Bool, wholeText: Bool, end: Int? = nil, strong: Bool = false) -> String {
        let end = end ?? s.count
        let delimiters = DelimiterRuns(Array(s[..<end]) + (strong ? [":"] : []), conservative: !wholeText, strong: strong)
        var out = ""
        out.reserveCapacity(end + 8)
        var i = 0
        var afterURL = false
        while i < end {
            let c = s[i]
            if c == "h" || c == "w" || c == "f", let urlEnd = urlEnd(s, at: i) {
                for k in i..<min(urlEnd, end) {
                    if s[k] == "|" && table { out += "\\|" } else if let escape = Sanitize.visibleEscape(for: s[k]) { out += escape } else { out.unicodeScalars.append(s[k]) }
                }
                i = min(urlEnd, end)
                afterURL = true
                continue
            }
            defer { afterURL = false }
            switch c {
            case "\r" where i + 1 < s.count && s[i + 1] == "\n":
                out += "<br>"
                i += 2
                continue
            case "\n":
                out += "<br>"
            case "|":
                out += table ? "\\|" : "|"
            case "\\":
                // Doubled only where it would escape what is written next: ASCII punctuation, a
                // control's escape, a line break's `<br>`, or the `&#32;` of trailing spaces.
                let next = i + 1 < s.count ? s[i + 1] : nil
                let escapes: Bool
                if let next {
                    if next == " " {
                        escapes = s[(i + 1)...].allSatisfy { $0 == " " }
                    } else {
                        escapes = next == "\n" || next == "\r" || Sanitize.isControl(next.value)
                            || (next.isASCII && !next.properties.isAlphabetic && next.properties.numericType == nil && !next.properties.isWhitespace)
                    }
                } else {
                    escapes = false
                }
                out += escapes ? "\\\\" : "\\"
            case "*", "_", "~":
                var j = i
                while j < end && s[j] == c { j += 1 }
                let escaped = delimiters.escapes(at: i)
                for k in i..<j {
                    if k - i < escaped { out += "\\" }
                    out.unicodeScalars.append(c)
                }
                i = j
                continue
            case "`":
                var j = i
                while j < end && s[j] == "`" { j += 1 }
                let length = j - i
                let closes = !wholeText || hasBacktickRun(s, from: j, length: length)
                for _ in i..<j {
                    if closes { out += "\\" }
                    out += "`"
                }
                i = j
                continue
            case "[":
                // A link needs `](` after it (with no link definitions, `[a]` is text).
                if !wholeText || hasLinkEnd(s, after: i) { out += "\\" }
                out += "["
            case "<":
                let next = i + 1 < s.count ? s[i + 1] : nil
                if let next, next.isASCII, next.properties.isAlphabetic || next == "/" || next == "!" || next == "?", !wholeText || s[(i + 1)...].contains(">") {
                    // Right after a URL, `\` would be taken into the link: an empty comment ends it.
                    out += afterURL ? "<!---->\\<" : "\\<"
                } else {
                    out += "<"
                }
            case "&":
                if startsEntity(s, at: i + 1) { out += "\\" }
                out += "&"
            default:
                if let escape = Sanitize.visibleEscape(for: c) {
                    out += escape
                } else {
                    out.unicodeScalars.append(c)
                }
            }
            i += 1
        }
        return out
    }

    /// The end of a URL GFM's autolink extension takes from `at`, as cmark-gfm finds them:
    /// `https://`, `http://` or `ftp://` after anything but a letter or digit, or `www.` after the
    /// start, a space or one of `*_~(`; then up to a space, `<` or a line break.
    private static func urlEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        func starts(_ prefix: String) -> Bool {
            let p = Array(prefix.unicodeScalars)
            return i + p.count <= s.count && Array(s[i..<(i + p.count)]) == p
        }
        let before = i > 0 ? s[i - 1] : " "
        let prefixLength: Int
        if starts("https://") || starts("http://") || starts("ftp://") {
            guard !(before.isASCII && (before.properties.isAlphabetic || before.properties.numericType != nil)) else { return nil }
            prefixLength = starts("https://") ? 8 : 7 - (starts("ftp://") ? 1 : 0)
        } else if starts("www.") {
            guard before.properties.isWhitespace || "*_~(".unicodeScalars.contains(before) else { return nil }
            prefixLength = 4
        } else {
            return nil
        }
        // It ends where what is written is a space or `<` (a line break's `<br>`): a control is
        // written as its escape, which the link goes on through, as it does through NBSP.
        var end = i + prefixLength
        while end < s.count, s[end] != " ", s[end] != "<", s[end] != "\n", !(s[end] == "\r" && end + 1 < s.count && s[end + 1] == "\n") { end += 1 }
        return end > i + prefixLength ? end : nil
    }

    /// How a delimiter run's neighbour counts for GFM's flanking rules. A control is shown as an
    /// escape and a line break as `<br>`, both starting with punctuation.
    package enum Neighbour { case space, punctuation, other }

    package static func neighbour(_ c: Unicode.Scalar) -> Neighbour {
        if c == "\n" || c == "\r" || Sanitize.isControl(c.value) { return .punctuation }
        if c.properties.isWhitespace { return .space }
        if c.isASCII { return c.properties.isAlphabetic || c.properties.numericType != nil ? .other : .punctuation }
        switch c.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return .punctuation
        default:
            return .other
        }
    }

    /// Whether a `](` follows `[` at `at` (an inline link or image could form).
    private static func hasLinkEnd(_ s: [Unicode.Scalar], after at: Int) -> Bool {
        var k = at + 1
        while k + 1 < s.count {
            if s[k] == "]" && s[k + 1] == "(" { return true }
            k += 1
        }
        return false
    }

    /// The runs of `*`, `_` and `~` in a text, and which of them are escaped: a run that can open
    /// emphasis or strikethrough with a run of the same character after it that can close (GFM's
    /// flanking rules; `~` only in runs of one or two, matched with a run as long). Escaping the
    /// opener is enough: a run that can only close has no opener left to close. Every `*` and
    /// `_` of an escaped run is escaped (one left unescaped would still be a run); of `~~`, the
    /// first only, the `~` left over matching nothing, unless the text has a lone `~` it could
    /// match.
    package struct DelimiterRuns {
        private var runs: [(start: Int, char: Unicode.Scalar, length: Int, open: Bool, close: Bool)] = []
        private var escaped: [Int: Int] = [:]

        /// - Parameters:
        ///   - conservative: every run that can open is escaped, partner or not.
        ///   - strong: the text (ending with the `:` after a label) sits between `**` and `:**`,
        ///     which open and close strong emphasis around it: every `*` run in it that can open
        ///     or close has a partner there, and one at its start would join the `**`.
        package init(_ s: [Unicode.Scalar], conservative: Bool = false, strong: Bool = false) {
            var i = 0
            while i < s.count {
                let c = s[i]
                guard c == "*" || c == "_" || c == "~" else { i += 1; continue }
                var j = i
                while j < s.count && s[j] == c { j += 1 }
                let prev = i > 0 ? MarkdownRenderer.neighbour(s[i - 1]) : strong ? .punctuation : .space
                let next = j < s.count ? MarkdownRenderer.neighbour(s[j]) : .space
                let left = next != .space && (next != .punctuation || prev != .other)
                let right = prev != .space && (prev != .punctuation || next != .other)
                let open = c == "_" ? left && (!right || prev == .punctuation) : left
                let close = c == "_" ? right && (!left || next == .punctuation) : right
                runs.append((i, c, j - i, open, close))
                i = j
            }
            let loneTildes = runs.filter { $0.char == "~" && $0.length == 1 }.count
            let starRuns = runs.filter { $0.char == "*" && ($0.open || $0.close) }.count
            for (k, run) in runs.enumerated() {
                let strike = run.char == "~"
                if strike && run.length > 2 { continue }
                func partner(_ other: (start: Int, char: Unicode.Scalar, length: Int, open: Bool, close: Bool)) -> Bool {
                    other.char == run.char && (!strike || other.length == run.length)
                }
                // GFM's rule of 3: a run that can both open and close, of 1, 4, 7… `*`, pairs with
                // neither `**`; alone in the label it pairs with nothing.
                let inert = run.open && run.close && run.length % 3 == 1 && starRuns == 1 && run.start > 0
                let active = strong && run.char == "*" && (run.start == 0 || (run.open || run.close) && !inert)
                    || run.open && (conservative || runs[(k + 1)...].contains(where: { partner($0) && $0.close }))
                guard active else { continue }
                escaped[run.start] = strike && run.length == 2 && loneTildes == 0 && !conservative ? 1 : run.length
            }
        }

        /// How many characters of the run starting at `start` are escaped (from its start).
        package func escapes(at start: Int) -> Int { escaped[start] ?? 0 }
    }

    /// Whether a run of exactly `length` backticks starts at or after `from`.
    private static func hasBacktickRun(_ s: [Unicode.Scalar], from: Int, length: Int) -> Bool {
        var k = from
        while k < s.count {
            if s[k] == "`" {
                var j = k
                while j < s.count && s[j] == "`" { j += 1 }
                if j - k == length { return true }
                k = j
            } else {
                k += 1
            }
        }
        return false
    }

    /// Whether `s[at...]` makes `&` an entity: `#` digits `;`, `#x` hex `;`, or a name `;`.
    private static func startsEntity(_ s: [Unicode.Scalar], at: Int) -> Bool {
        var k = at
        func isDigit(_ c: Unicode.Scalar) -> Bool { c.isASCII && c.properties.numericType != nil }
        func isLetter(_ c: Unicode.Scalar) -> Bool { c.isASCII && c.properties.isAlphabetic }
        guard k < s.count else { return false }
        if s[k] == "#" {
            k += 1
            let hex = k < s.count && (s[k] == "x" || s[k] == "X")
            if hex { k += 1 }
            let start = k
            while k < s.count && (isDigit(s[k]) || (hex && "abcdefABCDEF".unicodeScalars.contains(s[k]))) { k += 1 }
            return k > start && k - start <= (hex ? 6 : 7) && k < s.count && s[k] == ";"
        }
        guard isLetter(s[k]) else { return false }
        let start = k
        while k < s.count && (isLetter(s[k]) || isDigit(s[k])) { k += 1 }
        return k - start <= 32 && k < s.count && s[k] == ";"
    }
}
