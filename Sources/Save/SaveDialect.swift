import Input
import Options
import Schedule
import Support
import Text
import Transform
/// Why a save did not happen: one line, `WHERE: what` (E1), and whether another name may work.
package struct SaveError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    /// The file on disk is not the one the view read (or cannot be written): save under another name.
    package var offerSaveAs = false
    /// The save was stopped (`Esc`): nothing was written over.
    package var stopped = false

    package init(_ message: String, offerSaveAs: Bool = false, stopped: Bool = false) {
        self.message = message
        self.offerSaveAs = offerSaveAs
        self.stopped = stopped
    }

    package var description: String { message }
}

/// How a file is written, as read from it, so changed and added rows are written the same way
/// (V10): the delimiter and escapes (or JSON Lines), the text encoding, the line ending, and
/// whether every field is quoted.
package struct SaveDialect: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case delimited(Dialect)
        case jsonLines
    }

    package var kind: Kind
    package var encoding: TextEncoding
    /// The line ending new rows take, in UTF-8 (`\n`, `\r\n` or `\r`): the file's first.
    package var lineEnding: [UInt8] = [0x0A]
    /// The header row (the first row without one) quotes every field: new rows do too.
    package var quoteAll = false

    /// Bytes a code unit takes: 2 in UTF-16.
    package var unit: Int { encoding == .utf16le || encoding == .utf16be ? 2 : 1 }

    // MARK: - Finding it

    /// The line ending and quoting of `row`, the first row's text (UTF-8, with its line break).
    package mutating func learn(fromFirstRow row: [UInt8]) {
        // The break after the row's last character (a quoted field may hold others).
        let last = row.lastIndex(where: { $0 != 0x0A && $0 != 0x0D }) ?? -1
        let tail = Array(row[(last + 1)...])
        if !tail.isEmpty { lineEnding = tail.starts(with: [0x0D, 0x0A]) ? [0x0D, 0x0A] : [tail[0]] }
        if case .delimited(let d) = kind { quoteAll = Self.quotesEveryField(row, d) }
    }

    /// A field as its row holds it: where its bytes are (its quotes with it) and whether it is quoted.
    package struct RawField: Equatable {
        package var range: Range<Int>
        package var quoted: Bool
    }

    /// The fields of `row` (UTF-8, from its first character) as written, up to the line break
    /// that ends it (a quoted field may hold line breaks): the ranges join with one delimiter
    /// between each two, and the last ends where the row's line break (if any) starts.
    package static func rawFields(_ row: [UInt8], _ d: Dialect) -> [RawField] {
        var fields: [RawField] = []
        var i = 0
        while true {
            let start = i
            let quoted = d.quoting && i < row.count && row[i] == 0x22
            if quoted {
                i += 1
                while i < row.count {
                    if row[i] == 0x22 {
                        if i + 1 < row.count && row[i + 1] == 0x22 { i += 2; continue }
                        break
                    }
                    i += 1
                }
            }
            // After a closing quote, anything to the delimiter is the field's too (as the reader keeps it).
            while i < row.count && row[i] != d.delimiter && row[i] != 0x0A && row[i] != 0x0D { i += 1 }
            fields.append(RawField(range: start..<min(i, row.count), quoted: quoted))
            guard i < row.count && row[i] == d.delimiter else { return fields }
            i += 1
        }
    }

    /// Whether a row's fields are all quoted (UTF-8, up to its line break).
    package static func quotesEveryField(_ row: [UInt8], _ d: Dialect) -> Bool {
        d.quoting && rawFields(row, d).allSatisfy(\.quoted)
    }

    // MARK: - Writing a row

    /// A delimited row's fields as the file writes them, in UTF-8, without its line break (each
    /// as `field` writes it; every one quoted when `quoteAll`).
    package static func delimitedRow(_ fields: [[UInt8]], _ d: Dialect, quoteAll: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for (k, value) in fields.enumerated() {
            if k > 0 { out.append(d.delimiter) }
            out += field(value, d, quote: quoteAll, only: fields.count == 1)
        }
        return out
    }

    /// One field as the file writes it, in UTF-8. Quoted when `quote`, or when it must be: it
    /// holds the delimiter, a quote or a line break, or is its row's `only` field and empty. In
    /// a dialect with backslash escapes (TSV) a field not asked to be quoted is escaped instead:
    /// a tab, line feed or carriage return as `\t` `\n` `\r`, and a backslash as `\\` only
    /// where the reader would otherwise decode it (`escaped`); it is quoted only when escapes
    /// cannot say it (it starts with a quote, holds a delimiter other than a tab, or is the only
    /// field and empty).
    package static func field(_ value: [UInt8], _ d: Dialect, quote: Bool, only: Bool) -> [UInt8] {
        let emptyOnly = only && value.isEmpty
        if d.backslashEscapes && !quote {
            let must = value.first == 0x22 || emptyOnly || (d.delimiter != 0x09 && value.contains(d.delimiter))
            if !must || !d.quoting { return escaped(value, d) }
        }
        let must = emptyOnly || value.contains { $0 == d.delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D || ($0 == 0x5C && d.backslashEscapes) }
        guard d.quoting && (must || quote) else { return value }
        var out: [UInt8] = [0x22]
        for b in value {
            out.append(b)
            if b == 0x22 { out.append(b) }
        }
        out.append(0x22)
        return out
    }

    /// `value` with a tab or line break written as its backslash escape, and a backslash as `\\`
    /// only where the reader (I3, `CSVReader`'s `escape` state) would otherwise read it with the
    /// byte written after it as an escape: before `t`, `n`, `r` or a backslash, or before a tab,
    /// line feed or carriage return, whose escapes start with a backslash. Before any other byte,
    /// and at the end of the field (the delimiter, a line break or the end of the file follow it,
    /// and the reader keeps a backslash before those), it is written as it is, so `C:\data\x2`
    /// stays as typed and a diff shows what was typed. (At the end it is doubled when the
    /// delimiter is itself `t`, `n`, `r` or a backslash, `-d t`: the reader would decode the two.)
    private static func escaped(_ value: [UInt8], _ d: Dialect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        for (i, b) in value.enumerated() {
            switch b {
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x5C:
                // The byte written after it: the next one (a tab or line break as its escape, which
                // starts with a backslash), or at the end of the field the delimiter.
                let next = i + 1 < value.count ? value[i + 1] : d.delimiter
                let isEscape = i + 1 < value.count && (next == 0x09 || next == 0x0A || next == 0x0D)
                out += isEscape || decodesAfterBackslash(next) ? [0x5C, 0x5C] : [0x5C]
            default: out.append(b)
            }
        }
        return out
    }

    /// Whether the TSV reader reads a backslash before `byte` as an escape (I3): `t`, `n`, `r`
    /// or a backslash.
    private static func decodesAfterBackslash(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "t") || byte == UInt8(ascii: "n") || byte == UInt8(ascii: "r") || byte == 0x5C
    }

    /// Whether a field can be written in dialect `d` at all: without quoting, a delimiter or line
    /// break in it cannot (but for what backslash escapes say: a tab, a line break).
    package static func canWrite(_ field: [UInt8], _ d: Dialect) -> Bool {
        if d.quoting { return true }
        if d.backslashEscapes { return d.delimiter == 0x09 || !field.contains(d.delimiter) }
        return !field.contains { $0 == d.delimiter || $0 == 0x0A || $0 == 0x0D }
    }

    /// `text` (UTF-8) in this file's encoding, appended to `out`.
    /// - Returns: nil, or the first character the encoding cannot hold and its place (1-based,
    ///   in characters).
    package func encode(_ text: [UInt8], into out: inout [UInt8]) -> (Unicode.Scalar, Int)? {
        if encoding == .utf8 {
            out.append(contentsOf: text)
            return nil
        }
        var place = 0
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            place += 1
            let v = scalar.value
            switch encoding {
            case .utf8:
                break
            case .latin1:
                guard v <= 0xFF else { return (scalar, place) }
                out.append(UInt8(v))
            case .cp1252:
                if v < 0x80 || (v >= 0xA0 && v <= 0xFF) {
                    out.append(UInt8(v))
                } else if let b = (0x80...0x9F).first(where: { InputStream.cp1252(UInt8($0)) == v }) {
                    out.append(UInt8(b))
                } else {
                    return (scalar, place)
                }
            case .utf16le, .utf16be:
                for unit in String(scalar).utf16 {
                    let (hi, lo) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
                    if encoding == .utf16le { out.append(lo); out.append(hi) } else { out.append(hi); out.append(lo) }
                }
            }
        }
        return nil
    }
}

/// A save seen from the key loop while it runs on a thread of its own (V10): how far it has
/// written, and a request to stop, honoured at the next block written (the temporary file is
/// then removed and the file left as it was).
package final class SaveProgress: Sendable {
    private let state = Locked((fraction: 0.0, stop: false))
    /// Called on the saving thread when another whole percent is written.
    private let changed: @Sendable () -> Void

    package init(changed: @escaping @Sendable () -> Void = {}) { self.changed = changed }

    /// The share written so far (0…1).
    package var fraction: Double { state.current.fraction }

    /// Asks the save to stop at its next block.
    package func stop() { state.withLock { $0.stop = true } }

    /// `done` of `total` bytes written. - Throws: `SaveError` (`stopped`) when asked to stop.
    package func advance(_ done: Int64, of total: Int64) throws(SaveError) {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let (stop, moved) = state.withLock { s -> (Bool, Bool) in
            let moved = Int(fraction * 100) != Int(s.fraction * 100)
            s.fraction = max(s.fraction, fraction)
            return (s.stop, moved)
        }
        if stop { throw SaveError("save stopped: the file was left as it was", stopped: true) }
        if moved { changed() }
    }
}
