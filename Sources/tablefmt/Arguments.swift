import FormatEngine

/// A command-line mistake: one line naming it; exit 64 (E1).
struct UsageError: Error {
    var message: String
}

/// What the command line asked for.
struct Invocation {
    var options = FormatOptions()
    /// The input file; nil or "-" is standard input.
    var file: String?
    /// `-w/--width` as given (nil: follow the terminal, then COLUMNS).
    var width: Int?
    /// `-f` as given (nil: decided from the terminal and the environment, O1).
    var format: OutputFormat?
    /// `--color` as given.
    var color = "auto"
    var showHelp = false
    var showVersion = false
}

/// One option: its names, whether it takes a value, its help line and what it does.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    /// The value's placeholder in help, nil for a flag.
    let value: String?
    let group: String
    let help: String
    let apply: @Sendable (inout Invocation, String) throws(UsageError) -> Void
}

extension String {
    /// Without leading and trailing spaces.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

/// The hand-written command-line parser.
enum Arguments {
    static let groups = ["Input", "Columns and cells", "Layout", "Output", "Other"]

    static let specs: [OptionSpec] = [
        OptionSpec(long: "input-format", short: "i", value: "FMT", group: "Input",
                   help: "auto|csv|tsv|json|jsonl (ndjson): auto uses the extension, then the first bytes") { inv, v throws(UsageError) in
            if v == "auto" { inv.options.inputFormat = nil; return }
            guard let format = InputFormat(name: v) else { throw invalid("--input-format", v, "auto, csv, tsv, json, jsonl") }
            inv.options.inputFormat = format
        },
        OptionSpec(long: "delimiter", short: "d", value: "CHAR", group: "Input",
                   help: "field delimiter: one character, or tab|comma|semicolon|pipe (default: sniffed among , ; TAB |)") { inv, v throws(UsageError) in
            inv.options.delimiter = try delimiter(v)
        },
        OptionSpec(long: "no-header", short: nil, value: nil, group: "Input",
                   help: "the first CSV/TSV row is data; columns are named Column 1…N") { inv, _ in
            inv.options.header = false
        },
        OptionSpec(long: "encoding", short: nil, value: "ENC", group: "Input",
                   help: "utf-8|utf-16le|utf-16be|latin1|cp1252 (default: UTF-8, or UTF-16 by its BOM)") { inv, v throws(UsageError) in
            guard let encoding = TextEncoding(name: v) else { throw invalid("--encoding", v, "utf-8, utf-16le, utf-16be, latin1, cp1252") }
            inv.options.encoding = encoding
        },
        OptionSpec(long: "window", short: nil, value: "N|all", group: "Input",
                   help: "rows a pipe is sized from before rows stream out (default 1000); a file is sized from all rows") { inv, v throws(UsageError) in
            if v == "all" { inv.options.window = nil; return }
            guard let n = Int(v), n > 0 else { throw invalid("--window", v, "a positive number or all") }
            inv.options.window = n
        },
        OptionSpec(long: "units", short: nil, value: "auto|keep", group: "Columns and cells",
                   help: "auto: a unit every cell shares moves into the heading, Price ($); keep: leave cells as written") { inv, v throws(UsageError) in
            guard v == "auto" || v == "keep" else { throw invalid("--units", v, "auto, keep") }
            inv.options.moveUnits = v == "auto"
        },
        OptionSpec(long: "headers", short: nil, value: "title|keep", group: "Columns and cells",
                   help: "title: unit_price → Unit Price, body_mass_g → Body Mass (g); keep: as written") { inv, v throws(UsageError) in
            guard v == "title" || v == "keep" else { throw invalid("--headers", v, "title, keep") }
            inv.options.titleHeadings = v == "title"
        },
        OptionSpec(long: "wrap", short: nil, value: "1|2", group: "Columns and cells",
                   help: "lines a cell may take before it is cut (default 1)") { inv, v throws(UsageError) in
            guard v == "1" || v == "2" else { throw invalid("--wrap", v, "1 or 2") }
            inv.options.cellLines = v == "2" ? 2 : 1
        },
        OptionSpec(long: "ellipsis", short: nil, value: "end|middle", group: "Columns and cells",
                   help: "where cut text loses characters: end (default) or middle, /usr/local/…/bin/tool") { inv, v throws(UsageError) in
            guard v == "end" || v == "middle" else { throw invalid("--ellipsis", v, "end, middle") }
            inv.options.ellipsis = v == "middle" ? .middle : .end
        },
        OptionSpec(long: "null", short: nil, value: "TEXT", group: "Columns and cells",
                   help: "what an empty cell shows (default: nothing)") { inv, v in
            inv.options.nullText = v
        },
        OptionSpec(long: "width", short: "w", value: "N", group: "Layout",
                   help: "container width in columns; 0 is unlimited (default: the terminal's, else $COLUMNS, else unlimited)") { inv, v throws(UsageError) in
            guard let n = Int(v), n >= 0 else { throw invalid("--width", v, "a number of columns, 0 for unlimited") }
            inv.width = n
        },
        OptionSpec(long: "max-width", short: nil, value: "N|P%", group: "Layout",
                   help: "widest a text column may be (default 50% of the width, padding included)") { inv, v throws(UsageError) in
            guard let bound = WidthBound(v) else { throw invalid("--max-width", v, "a number of columns or a percentage such as 40%") }
            inv.options.maxWidth = bound
        },
        OptionSpec(long: "min-width", short: nil, value: "N|P%", group: "Layout",
                   help: "narrowest a text column giving way may be (default 25% of the width)") { inv, v throws(UsageError) in
            guard let bound = WidthBound(v) else { throw invalid("--min-width", v, "a number of columns or a percentage such as 20%") }
            inv.options.minWidth = bound
        },
        OptionSpec(long: "fill", short: nil, value: nil, group: "Layout",
                   help: "the first column grows to fill the width") { inv, _ in
            inv.options.fill = true
        },
        OptionSpec(long: "layout", short: nil, value: "MODE", group: "Layout",
                   help: "auto (a table when every column fits, else a list report), table (columns that do not fit are left out, with a note), list, pages (bands of columns, the first repeated)") { inv, v throws(UsageError) in
            guard let mode = LayoutMode(rawValue: v) else { throw invalid("--layout", v, "auto, table, list, pages") }
            inv.options.layout = mode
        },
        OptionSpec(long: "list-report", short: nil, value: nil, group: "Layout",
                   help: "the same as --layout list: one block per row, a Label  value line per field") { inv, _ in
            inv.options.layout = .list
        },
        OptionSpec(long: "columns", short: nil, value: "A,B,…", group: "Layout",
                   help: "choose and order the columns, by name as in the input or by number from 1") { inv, v throws(UsageError) in
            let names = v.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard !names.contains(where: \.isEmpty) else { throw invalid("--columns", v, "names or numbers separated by commas") }
            inv.options.columns = names.map(ColumnReference.init)
        },
        OptionSpec(long: "limit", short: nil, value: "N", group: "Layout",
                   help: "show the first N rows, then a note of how many more") { inv, v throws(UsageError) in
            guard let n = Int(v), n >= 0 else { throw invalid("--limit", v, "a number of rows") }
            inv.options.limit = n
        },
        OptionSpec(long: "sort", short: nil, value: "[-]COL,…", group: "Layout",
                   help: "sort by columns, -COL descending; numbers by value, dates by time; stable; empty cells last (holds every row in memory)") { inv, v throws(UsageError) in
            let keys = v.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard !keys.contains(where: { $0.isEmpty || $0 == "-" }) else { throw invalid("--sort", v, "column names or numbers, -COL for descending") }
            inv.options.sort = keys.map(SortKey.init)
        },
        OptionSpec(long: "group-by", short: nil, value: "COL", group: "Layout",
                   help: "a section per value with its row count, and a footer of sums (holds every row in memory)") { inv, v throws(UsageError) in
            guard !v.isEmpty else { throw invalid("--group-by", v, "a column name or number") }
            inv.options.groupBy = ColumnReference(v)
        },
        OptionSpec(long: "footer", short: nil, value: "sum|none", group: "Layout",
                   help: "what ends each group: the sums of its numeric columns (default), or nothing") { inv, v throws(UsageError) in
            guard v == "sum" || v == "none" else { throw invalid("--footer", v, "sum, none") }
            inv.options.groupFooter = v == "sum"
        },
        OptionSpec(long: "title", short: nil, value: "TEXT", group: "Layout",
                   help: "a title above the output") { inv, v in
            inv.options.title = v
        },
        OptionSpec(long: "ambiguous-wide", short: nil, value: nil, group: "Layout",
                   help: "count East Asian ambiguous-width characters as two columns (CJK terminals)") { inv, _ in
            inv.options.ambiguousWide = true
        },
        OptionSpec(long: "format", short: "f", value: "FMT", group: "Output",
                   help: "plain, ansi or markdown (default: ansi on a terminal unless NO_COLOR or TERM=dumb, else plain)") { inv, v throws(UsageError) in
            guard let format = OutputFormat(rawValue: v) else { throw invalid("--format", v, "plain, ansi, markdown") }
            inv.format = format
        },
        OptionSpec(long: "color", short: nil, value: "WHEN", group: "Output",
                   help: "auto, always or never: whether the default format is ansi (FORCE_COLOR and CLICOLOR_FORCE mean always)") { inv, v throws(UsageError) in
            guard v == "auto" || v == "always" || v == "never" else { throw invalid("--color", v, "auto, always, never") }
            inv.color = v
        },
        OptionSpec(long: "style", short: nil, value: "STYLE", group: "Output",
                   help: "rule (headings over a rule, the default), box, ascii or compact") { inv, v throws(UsageError) in
            guard let style = TableStyle(rawValue: v) else { throw invalid("--style", v, "rule, box, ascii, compact") }
            inv.options.style = style
        },
        OptionSpec(long: "zebra", short: nil, value: nil, group: "Output",
                   help: "alternate rows on a background (ansi)") { inv, _ in
            inv.options.zebra = true
        },
        OptionSpec(long: "help", short: "h", value: nil, group: "Other", help: "show this help") { inv, _ in
            inv.showHelp = true
        },
        OptionSpec(long: "version", short: "V", value: nil, group: "Other", help: "show the version") { inv, _ in
            inv.showVersion = true
        },
    ]

    /// Parses argv (without the program name).
    /// - Throws: `UsageError` for an unknown option, a missing or bad value, or a second file.
    static func parse(_ args: [String]) throws(UsageError) -> Invocation {
        var inv = Invocation()
        var index = 0
        var onlyFiles = false
        func take(_ spec: OptionSpec, inline: String?, shown: String) throws(UsageError) {
            guard spec.value != nil else {
                if inline != nil { throw UsageError(message: "option \(shown) takes no value") }
                try spec.apply(&inv, "")
                return
            }
            if let inline { try spec.apply(&inv, inline); return }
            index += 1
            guard index < args.count else { throw UsageError(message: "option \(shown) needs a value (\(spec.value ?? ""))") }
            try spec.apply(&inv, args[index])
        }
        while index < args.count {
            let arg = args[index]
            if onlyFiles || arg == "-" || !arg.hasPrefix("-") {
                guard inv.file == nil else { throw UsageError(message: "more than one input file: '\(inv.file ?? "")' and '\(arg)'") }
                inv.file = arg
            } else if arg == "--" {
                onlyFiles = true
            } else if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let inline = body.contains("=") ? String(body[body.index(after: body.firstIndex(of: "=") ?? body.startIndex)...]) : nil
                guard let spec = specs.first(where: { $0.long == name }) ?? alias(name) else {
                    throw UsageError(message: "unknown option '--\(name)'" + suggestion(for: name))
                }
                try take(spec, inline: inline, shown: "--\(spec.long)")
            } else {
                // Bundled short options: -ab, -w40, -w 40.
                var chars = Array(arg.dropFirst())
                while !chars.isEmpty {
                    let c = chars.removeFirst()
                    guard let spec = specs.first(where: { $0.short == c }) else {
                        throw UsageError(message: "unknown option '-\(c)'" + suggestion(for: String(c)))
                    }
                    if spec.value != nil && !chars.isEmpty {
                        try take(spec, inline: String(chars), shown: "-\(c)")
                        chars = []
                    } else {
                        try take(spec, inline: nil, shown: "-\(c)")
                    }
                }
            }
            index += 1
        }
        return inv
    }

    /// Other spellings of options.
    static func alias(_ name: String) -> OptionSpec? {
        nil
    }

    static func invalid(_ option: String, _ value: String, _ expected: String) -> UsageError {
        UsageError(message: "invalid value '\(value)' for \(option) (expected \(expected))")
    }

    static func delimiter(_ v: String) throws(UsageError) -> UInt8 {
        switch v.lowercased() {
        case "tab", "\\t", "\t": return 0x09
        case "comma": return UInt8(ascii: ",")
        case "semicolon": return UInt8(ascii: ";")
        case "pipe": return UInt8(ascii: "|")
        case "space": return UInt8(ascii: " ")
        default:
            let bytes = Array(v.utf8)
            guard bytes.count == 1, bytes[0] != 0x22, bytes[0] != 0x0A, bytes[0] != 0x0D else {
                throw invalid("--delimiter", v, "one ASCII character other than a quote or line break, or tab|comma|semicolon|pipe")
            }
            return bytes[0]
        }
    }

    /// ` (did you mean --width?)` for the nearest long option, when one is close.
    static func suggestion(for name: String) -> String {
        let scored = specs.map { ($0.long, editDistance(name, $0.long)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else {
            if let prefix = specs.first(where: { $0.long.hasPrefix(name) && name.count >= 2 }) {
                return " (did you mean --\(prefix.long)?)"
            }
            return ""
        }
        return " (did you mean --\(best.0)?)"
    }

    /// Levenshtein distance, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    static let version = "tablefmt 0.1.0"

    static var help: String {
        var text = """
        tablefmt — turn CSV, TSV or JSON into a table a person can read

        Usage: tablefmt [OPTIONS] [FILE]
        Reads FILE, or standard input when FILE is - or absent.

        """
        for group in groups {
            text += "\n\(group):\n"
            for spec in specs where spec.group == group {
                var names = spec.short.map { "-\($0), " } ?? "    "
                names += "--\(spec.long)"
                if let value = spec.value { names += " \(value)" }
                let padded = names.count < 26 ? names + String(repeating: " ", count: 26 - names.count) : names + "\n" + String(repeating: " ", count: 28)
                text += "  \(padded)\(spec.help)\n"
            }
        }
        text += """

        Examples:
          tablefmt sales.csv                        a table sized to the terminal
          curl -s api/items.csv | tablefmt          from a pipe: sized from the first 1000 rows
          tablefmt -w 80 report.tsv >> ci.log       a fixed width for a CI log
          tablefmt --no-header -d ';' data.txt      semicolons, no header row
          tablefmt -w 60 --wrap 2 notes.csv         long text on two lines instead of one
          tablefmt -w 40 --list-report results.csv  a narrow CI log: one block per row
          tablefmt --sort -qty --limit 10 s.csv     the ten largest orders
          tablefmt --group-by region --columns region,customer,qty s.csv
          tablefmt -f markdown results.json >> "$GITHUB_STEP_SUMMARY"
          tablefmt --style box --zebra -f ansi data.csv | less -R

        Environment: COLUMNS (width when not a terminal), NO_COLOR, TERM=dumb, FORCE_COLOR, CLICOLOR_FORCE
        (colour), TABLEFMT_DEBUG=layout (explain the layout on stderr).

        Exit status: 0 ok, 64 bad usage, 65 malformed data (rows before it are printed),
        66 input cannot be opened, 74 read or write error.
        """
        return text
    }
}
