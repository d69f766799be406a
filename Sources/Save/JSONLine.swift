import Input
import Options
import Schedule
import Support
import Text
import Transform
/// One JSON Lines row rewritten with some of its values changed (V10): every byte of the line
/// kept but the values that changed, in their places, so the key order, the spacing, the
/// numbers as written and every other value stay as they were. A key the line lacks is added
/// at the end of its object.
package enum JSONLine {
    /// A member of an object: its key (decoded) and where its value lies.
    package struct Member {
        package var key: String
        package var value: Range<Int>
    }

    /// A column's new value: its name, the text typed, and whether the column holds numbers.
    package typealias Change = (name: String, text: [UInt8], number: Bool)

    /// `line` with the value of each `(column name, text)` of `changes` replaced. A name with
    /// dots reaches into nested objects (`b.c`) when the line has no key of the whole name.
    /// - Returns: nil when the line is not a JSON object.
    /// - Throws: `Unclear` (with the column's name) when which member a change is for is not clear.
    package static func edited(_ line: [UInt8], changes: [Change]) throws(Unclear) -> [UInt8]? {
        var line = line
        guard let start = line.firstIndex(where: { !isSpace($0) }), line[start] == UInt8(ascii: "{") else { return nil }
        for change in changes {
            guard let end = skipValue(line, start) else { return nil }
            do {
                line = try set(line, object: start..<end, path: change.name, change: change)
            } catch {
                throw Unclear(reason: "\(Sanitize.visible(change.name)): \(Sanitize.visible(error.reason))")
            }
        }
        return line
    }

    /// Why the member column `name` is in `line` is not clear (as `edited` would refuse a value
    /// typed there), nil when it is (or the line is not an object).
    package static func unclear(_ line: [UInt8], name: String) -> String? {
        do {
            _ = try edited(line, changes: [(name: name, text: [0x30], number: false)])
        } catch {
            return error.reason
        }
        return nil
    }

    /// A new row: each non-empty `(name, text)` as a member, a number as written, else a string,
    /// at the keys `paths` gives for it (the reader's path to its column: `["b", "c"]` for the
    /// `c` of an object `b`; nil, or none given, its name as one key), so the new line has the
    /// file's shape and reads back as the same columns. Members under the same first key go into
    /// one object, at the place of the first of them.
    /// - Throws: `Unclear` when one key would hold both a value and an object (`a` and `a.b`).
    package static func object(_ pairs: [Change], paths: [[String]?] = []) throws(Unclear) -> [UInt8] {
        let members = pairs.enumerated().filter { !$0.element.text.isEmpty }.map { k, pair in
            (path: (k < paths.count ? paths[k] : nil) ?? [pair.name], text: pair.text)
        }
        return try nested(members[...])
    }

    private static func nested(_ members: ArraySlice<(path: [String], text: [UInt8])>) throws(Unclear) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        var done = Set<Int>()
        for (k, member) in zip(members.indices, members) where !done.contains(k) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            let head = member.path[0]
            let group = members.indices.filter { !done.contains($0) && members[$0].path[0] == head }
            done.formUnion(group)
            out += JSONText.quoted(head.utf8) + [UInt8(ascii: ":")]
            if group.count == 1 && member.path.count == 1 {
                out += value(member.text, like: nil, number: true)
                continue
            }
            guard group.allSatisfy({ members[$0].path.count > 1 }) else {
                throw Unclear(reason: "\"\(head)\" would hold both a value and an object")
            }
            out += try nested(group.map { (path: Array(members[$0].path.dropFirst()), text: members[$0].text) }[...])
        }
        return out + [UInt8(ascii: "}")]
    }

    /// `text` as a JSON value: bare when it is a number and the value it replaces was a number,
    /// or was null in a column of numbers (`number`), or is new (a key the line lacks); `true`,
    /// `false`, `null` bare for one of those; else a string. A null typed over in a column of
    /// text is a string.
    package static func value(_ text: [UInt8], like original: ArraySlice<UInt8>?, number: Bool) -> [UInt8] {
        let first = original?.first
        let literals: [[UInt8]] = [Array("true".utf8), Array("false".utf8), Array("null".utf8)]
        let wasNumber = first.map { $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) || (number && $0 == UInt8(ascii: "n")) } ?? true
        if wasNumber && JSONText.isNumber(text) { return text }
        // An array or object typed over one (the editor opens such a field as its JSON): as typed.
        if let first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{"), isStructure(text) { return text }
        if let first, first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n"), literals.contains(text) { return text }
        return JSONText.quoted(text)
    }

    /// Whether `text` is one JSON array or object, as RFC 8259 writes one (spaces around it
    /// allowed): read as a JSON Lines member by the reader the view uses.
    package static func isStructure(_ text: [UInt8]) -> Bool {
        guard let start = text.firstIndex(where: { !isSpace($0) }), text[start] == UInt8(ascii: "[") || text[start] == UInt8(ascii: "{"),
              let end = skipValue(text, start), text[end...].allSatisfy(isSpace) else { return false }
        let line = Array("{\"v\":".utf8) + text + Array("}\n".utf8)
        var reader = JSONReader(stream: InputStream(MemorySource(line), encoding: .utf8), linesMode: true, sourceName: "")
        var record = Record()
        guard (try? reader.read(into: &record)) == true else { return false }
        return (try? reader.read(into: &record)) == false
    }

    // MARK: - Reading a line

    /// Why a line's member cannot be written for a column: which member is meant is not clear.
    package struct Unclear: Error {
        package var reason: String
    }

    /// `line` with the member `path` names in `object` set to the change. A member written must
    /// be the one the reader showed, so a line where that is not clear is refused: a key twice
    /// in an object, a dotted name that is both a key and a path into a nested object, or a
    /// dotted name the line has neither (a key to add, or an object missing).
    private static func set(_ line: [UInt8], object: Range<Int>, path: String, change: Change) throws(Unclear) -> [UInt8] {
        switch try locate(line, object: object, path: path) {
        case .member(let member):
            return Array(line[..<member.value.lowerBound]) + value(change.text, like: line[member.value], number: change.number) + Array(line[member.value.upperBound...])
        case .absent(let object, let empty, let key):
            guard !change.text.isEmpty else { return line }
            guard !key.contains(".") else { throw Unclear(reason: "the line has neither a key \"\(key)\" nor the objects its dots name") }
            // Not there: added before the object's closing brace.
            let close = object.upperBound - 1
            let member = (empty ? [] : [UInt8(ascii: ",")]) + JSONText.quoted(key.utf8) + [UInt8(ascii: ":")] + value(change.text, like: nil, number: change.number)
            return Array(line[..<close]) + member + Array(line[close...])
        }
    }

    /// Where the member column `path` names is in the object at `object`.
    private enum Located {
        /// The member.
        case member(Member)
        /// None: the object it would be added to (whether that object is empty), under `key`
        /// (the rest of the path there).
        case absent(object: Range<Int>, empty: Bool, key: String)
    }

    /// The member of `line`'s object the column `name` names (as `edited` finds it): its value's
    /// bytes as written, nil when the line has none or is not an object.
    /// - Throws: `Unclear` when which member it is, is not clear.
    package static func memberValue(_ line: [UInt8], name: String) throws(Unclear) -> ArraySlice<UInt8>? {
        guard let start = line.firstIndex(where: { !isSpace($0) }), line[start] == UInt8(ascii: "{"), let end = skipValue(line, start) else { return nil }
        guard case .member(let member) = try locate(line, object: start..<end, path: name) else { return nil }
        return line[member.value]
    }

    /// The member `path` names in `object`: a key of the whole name, else a path into nested
    /// objects by its dots. - Throws: `Unclear` when that is not one member.
    private static func locate(_ line: [UInt8], object: Range<Int>, path: String) throws(Unclear) -> Located {
        let found = members(line, object)
        let named = found.filter { $0.key == path }
        guard named.count < 2 else { throw Unclear(reason: "the key \"\(path)\" is in the line \(named.count) times") }
        // A nested object's key: `b.c` is `c` in `b`.
        var nested: (Member, String)?
        var dot = path.startIndex
        while nested == nil, let next = path[dot...].firstIndex(of: ".") {
            let head = String(path[..<next]), rest = String(path[path.index(after: next)...])
            let heads = found.filter { $0.key == head }
            guard heads.count < 2 else { throw Unclear(reason: "the key \"\(head)\" is in the line \(heads.count) times") }
            if let member = heads.first, line[member.value].first == UInt8(ascii: "{") { nested = (member, rest) }
            dot = path.index(after: next)
        }
        if let member = named.first {
            guard nested == nil else { throw Unclear(reason: "\"\(path)\" is both a key of the line and a path into its objects") }
            return .member(member)
        }
        if let (member, rest) = nested { return try locate(line, object: member.value, path: rest) }
        return .absent(object: object, empty: found.isEmpty, key: path)
    }

    /// The members of the object at `range` (from its `{`).
    package static func members(_ line: [UInt8], _ range: Range<Int>) -> [Member] {
        var out: [Member] = []
        var i = range.lowerBound + 1
        while true {
            i = skipSpace(line, i)
            guard i < range.upperBound, line[i] == 0x22, let keyEnd = skipValue(line, i) else { return out }
            let key = decodeString(line[(i + 1)..<(keyEnd - 1)])
            i = skipSpace(line, keyEnd)
            guard i < line.count, line[i] == UInt8(ascii: ":") else { return out }
            let valueStart = skipSpace(line, i + 1)
            guard let valueEnd = skipValue(line, valueStart) else { return out }
            out.append(Member(key: key, value: valueStart..<valueEnd))
            i = skipSpace(line, valueEnd)
            guard i < line.count, line[i] == UInt8(ascii: ",") else { return out }
            i += 1
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func skipSpace(_ line: [UInt8], _ i: Int) -> Int {
        var i = i
        while i < line.count && isSpace(line[i]) { i += 1 }
        return i
    }

    /// Where the value starting at `i` ends; nil when it does not.
    package static func skipValue(_ line: [UInt8], _ i: Int) -> Int? {
        guard i < line.count else { return nil }
        var depth = 0, k = i, inString = false
        while k < line.count {
            let b = line[k]
            if inString {
                if b == 0x5C { k += 1 } else if b == 0x22 { inString = false; if depth == 0 { return k + 1 } }
            } else if b == 0x22 {
                inString = true
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                if depth == 0 { return k }
                depth -= 1
                if depth == 0 { return k + 1 }
            } else if depth == 0 && (b == UInt8(ascii: ",") || isSpace(b)) {
                return k
            }
            k += 1
        }
        return depth == 0 && !inString ? k : nil
    }

    /// A JSON string's text (between its quotes) decoded.
    package static func decodeString(_ raw: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var bytes: [UInt8] = []
        var i = raw.startIndex
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.endIndex else { return nil }
            return UInt32(String(decoding: raw[at..<(at + 4)], as: UTF8.self), radix: 16)
        }
        func flush() { scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars); bytes.removeAll() }
        while i < raw.endIndex {
            let b = raw[i]
            guard b == 0x5C, i + 1 < raw.endIndex else { bytes.append(b); i += 1; continue }
            flush()
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "u"):
                guard var v = hex4(i) else { continue }
                i += 4
                if v >= 0xD800 && v < 0xDC00, i + 6 <= raw.endIndex, raw[i] == 0x5C, let low = hex4(i + 2), low >= 0xDC00 && low < 0xE000 {
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            default: scalars.append(Unicode.Scalar(e))
            }
        }
        flush()
        return String(scalars)
    }
}
