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
/// A JSON row's sheet as an outline (V4): nested objects (the dotted columns the JSON reader
/// makes, `user.addr.city`) and arrays (cells holding JSON text) as nodes that `→` opens and `←`
/// closes, one level at a time, every field's value wrapped in full.
struct Outline {
    /// A field, or an object or array holding fields.
    struct Node {
        var label: String
        var value: String?
        var children: [Node] = []
        /// `(2 items)` or `(3 fields)`, for a closed node.
        var summary: String {
            let n = children.count
            let array = children.first?.label.hasPrefix("[") ?? false
            return "(\(n) \(array ? "item" : "field")\(n == 1 ? "" : "s"))"
        }
    }

    var nodes: [Node] = []

    /// The outline of a row: `names` are the columns' names as the input has them (dotted paths),
    /// `labels` how each part is shown, `values` the cells.
    init(names: [String], values: [String], label: (String) -> String) {
        for (name, value) in zip(names, values) {
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            Self.insert(path[...], value: value, into: &nodes, label: label)
        }
    }

    private static func insert(_ path: ArraySlice<String>, value: String, into nodes: inout [Node], label: (String) -> String) {
        guard let head = path.first else { return }
        let shown = label(head)
        if path.count == 1 {
            var node = Node(label: shown, value: value)
            if let parsed = JSONCell.parse(value), case .container(let children) = parsed {
                node.value = children.isEmpty ? value : nil
                node.children = children.map { Self.node($0.key, $0.value, label: label) }
            }
            nodes.append(node)
            return
        }
        if let k = nodes.lastIndex(where: { $0.label == shown && $0.value == nil }) {
            insert(path.dropFirst(), value: value, into: &nodes[k].children, label: label)
        } else {
            var node = Node(label: shown, value: nil)
            insert(path.dropFirst(), value: value, into: &node.children, label: label)
            nodes.append(node)
        }
    }

    private static func node(_ key: String, _ value: JSONCell, label: (String) -> String) -> Node {
        let shown = key.hasPrefix("[") ? key : label(key)
        switch value {
        case .scalar(let text): return Node(label: shown, value: text)
        case .container(let children):
            if children.isEmpty { return Node(label: shown, value: key.hasPrefix("[") ? "[]" : "{}") }
            return Node(label: shown, value: nil, children: children.map { node($0.key, $0.value, label: label) })
        }
    }

    /// How deep the outline goes.
    var depth: Int { Self.depth(nodes) }
    private static func depth(_ nodes: [Node]) -> Int { nodes.map { $0.children.isEmpty ? 1 : 1 + depth($0.children) }.max() ?? 0 }

    /// The outline's lines at `width`, nodes open down to `open` levels: `▾ label` over its
    /// children (indented two columns), `▸ label (n fields)` closed, `label  value` for a field.
    func lines(width: Int, open: Int, measure: DisplayWidth, nullText: String, ellipsis: EllipsisMode) -> [(text: String, style: LineStyle)] {
        var out: [(String, LineStyle)] = []
        func draw(_ nodes: [Node], level: Int) {
            let indent = String(repeating: " ", count: 2 * level)
            let labelWidth = min(max(1, width / 2), nodes.filter { $0.value != nil }.map { measure.width(of: $0.label) }.max() ?? 0)
            for node in nodes {
                if node.value == nil {
                    let mark = level + 1 < open ? "▾ " : "▸ "
                    let text = indent + mark + node.label + (level + 1 < open ? "" : " " + node.summary)
                    for line in measure.fit(text, width: width, maxLines: Int.max, ellipsis: ellipsis) { out.append((line.text, .label)) }
                    if level + 1 < open { draw(node.children, level: level + 1) }
                    continue
                }
                let valueWidth = max(1, width - indent.count - labelWidth - 2)
                let labels = measure.fit(node.label, width: max(1, min(labelWidth, width - indent.count)), maxLines: Int.max, ellipsis: ellipsis)
                let value = node.value ?? ""
                let values = value.isEmpty ? [TextLine(text: nullText, width: measure.width(of: nullText))]
                    : measure.fit(value, width: valueWidth, maxLines: Int.max, ellipsis: ellipsis)
                for k in 0..<max(labels.count, values.count) {
                    let label = k < labels.count ? labels[k] : TextLine(text: "", width: 0)
                    var text = indent + label.text
                    if k < values.count && indent.count + labelWidth + 2 < width {
                        text += String(repeating: " ", count: labelWidth - label.width + 2) + values[k].text
                    }
                    out.append((text, value.isEmpty ? .empty : .plain))
                }
            }
        }
        draw(nodes, level: 0)
        return out
    }

    enum LineStyle { case plain, label, empty }
}

/// A cell's JSON text read back into its structure (arrays of objects, the JSON reader writes
/// as JSON text). At most 64 levels deep; anything else is not JSON and stays text.
enum JSONCell {
    case scalar(String)
    case container([(key: String, value: JSONCell)])

    static func parse(_ text: String) -> JSONCell? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first(where: { $0 != 0x20 }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else { return nil }
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> JSONCell? {
            guard depth < 64 else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, JSONCell)] = []
                skipSpace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .container([]) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    members.append((key, member))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .container(members) }
                    return nil
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [(String, JSONCell)] = []
                skipSpace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .container([]) }
                while true {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(("[\(items.count)]", item))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .container(items) }
                    return nil
                }
            case UInt8(ascii: "\""):
                return string().map { .scalar($0) }
            default:
                // A number, true, false or null: its text as written.
                let start = index
                while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                return .scalar(word == "null" ? "" : word)
            }
        }

        /// A JSON string, unescaped.
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var out: [UInt8] = []
            var pendingHigh: UInt32?
            while index < bytes.count {
                let b = bytes[index]
                index += 1
                if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard b == UInt8(ascii: "\\") else {
                    out.append(b)
                    continue
                }
                guard index < bytes.count else { return nil }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else { return nil }
                    index += 4
                    var scalar: Unicode.Scalar?
                    if (0xD800..<0xDC00).contains(code) {
                        pendingHigh = code
                        continue
                    } else if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                        scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
                    } else {
                        scalar = Unicode.Scalar(code)
                    }
                    pendingHigh = nil
                    out.append(contentsOf: Array(String(scalar ?? "\u{FFFD}").utf8))
                default: out.append(e)
                }
            }
            return nil
        }
    }
}
