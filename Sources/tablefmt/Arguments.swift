import FormatEngine

/// A command-line mistake: one line naming it; exit 64 (E1).
struct UsageError: Error {
    var message: String
}

/// What the command line asked for.
struct Invocation {
    var options = FormatOptions()
    /// The input files in order; none, or "-", is standard input.
    var files: [String] = []
    /// `-w/--width` as given (nil: follow the terminal, then COLUMNS).
    var width: Int?
    /// `-f` as given (nil: decided from the terminal and the environment, O1).
    var format: OutputFormat?
    /// `--color` as given.
    var color = "auto"
    /// `-h` (a short usage) or `--help` (every option).
    var help: HelpKind?
    var showVersion = false
    /// `--generate KIND`: print a man page or a completion script instead of a table.
    var generate: Generated?
    /// `--view` as given (nil: `TABLEFMT_VIEW`, else auto).
    var view: ViewWhen?
}

/// When the live view opens (V1).
enum ViewWhen: String, CaseIterable {
    case auto, always, never
}

enum HelpKind { case short, full }

/// What `--generate` prints, each made from the one option table (`Arguments.specs`).
enum Generated: String, CaseIterable {
    case man, bash, zsh, fish
}

/// One option: its names, whether it takes a value, its help line and what it does. `--help`,
/// `-h`, the man page and the shell completions are all made from these.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    /// The value's placeholder in help, nil for a flag.
    let value: String?
    let group: String
    let help: String
    /// The values an enumerated option takes (for completions), empty when any value goes.
    var choices: [String] = []
    /// The option's line in `-h`'s short usage; nil leaves it out there.
    var brief: String? = nil
    /// Sets the option; a flag is given the name it was spelled with (`-h` or `--help`).
    let apply: @Sendable (inout Invocation, String) throws(UsageError) -> Void

    /// `-w, --width N` as help and the man page show it.
    var synopsis: String {
        var names = short.map { "-\($0), " } ?? "    "
        names += "--\(long)"
        if let value { names += " \(value)" }
        return names
    }
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
                   help: "auto|csv|tsv|json|jsonl (ndjson): auto uses the extension, then the first bytes", choices: ["auto", "csv", "tsv", "json", "jsonl", "ndjson"]) { inv, v throws(UsageError) in
            if v == "auto" { inv.options.inputFormat = nil; return }
            guard let format = InputFormat(name: v) else { throw invalid("--input-format", v, "auto, csv, tsv, json, jsonl") }
            inv.options.inputFormat = format
        },
        OptionSpec(long: "delimiter", short: "d", value: "CHAR", group: "Input",
                   help: "field delimiter: one character, or tab|comma|semicolon|pipe (default: sniffed among , ; TAB |)", choices: ["tab", "comma", "semicolon", "pipe"]) { inv, v throws(UsageError) in
            inv.options.delimiter = try delimiter(v)
        },
        OptionSpec(long: "no-header", short: nil, value: nil, group: "Input",
                   help: "the first CSV/TSV row is data; columns are named Column 1…N") { inv, _ in
            inv.options.header = false
        },
        OptionSpec(long: "follow", short: nil, value: nil, group: "Input",
                   help: "after the input's end, wait for more rows as tail -F does: a file appended to, truncated or rotated is read on; the view follows the last row, print streams rows as they come; Ctrl-C ends it (exit 0)",
                   brief: "wait for more rows, as tail -F (view and print)") { inv, _ in
            inv.options.follow = true
        },
        OptionSpec(long: "encoding", short: nil, value: "ENC", group: "Input",
                   help: "utf-8|utf-16le|utf-16be|latin1|cp1252 (default: UTF-8, or UTF-16 by its BOM)", choices: ["utf-8", "utf-16le", "utf-16be", "latin1", "cp1252"]) { inv, v throws(UsageError) in
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
                   help: "auto: a unit every cell shares moves into the heading, Price ($); keep: leave cells as written", choices: ["auto", "keep"]) { inv, v throws(UsageError) in
            guard v == "auto" || v == "keep" else { throw invalid("--units", v, "auto, keep") }
            inv.options.moveUnits = v == "auto"
        },
        OptionSpec(long: "headers", short: nil, value: "title|keep", group: "Columns and cells",
                   help: "title: unit_price → Unit Price, body_mass_g → Body Mass (g); keep: as written", choices: ["title", "keep"]) { inv, v throws(UsageError) in
            guard v == "title" || v == "keep" else { throw invalid("--headers", v, "title, keep") }
            inv.options.titleHeadings = v == "title"
        },
        OptionSpec(long: "wrap", short: nil, value: "1|2", group: "Columns and cells",
                   help: "lines a cell may take before it is cut (default 1)", choices: ["1", "2"]) { inv, v throws(UsageError) in
            guard v == "1" || v == "2" else { throw invalid("--wrap", v, "1 or 2") }
            inv.options.cellLines = v == "2" ? 2 : 1
        },
        OptionSpec(long: "ellipsis", short: nil, value: "end|middle", group: "Columns and cells",
                   help: "where cut text loses characters: end (default) or middle, /usr/local/…/bin/tool", choices: ["end", "middle"]) { inv, v throws(UsageError) in
            guard v == "end" || v == "middle" else { throw invalid("--ellipsis", v, "end, middle") }
            inv.options.ellipsis = v == "middle" ? .middle : .end
        },
        OptionSpec(long: "null", short: nil, value: "TEXT", group: "Columns and cells",
                   help: "what an empty cell shows (default: nothing)") { inv, v in
            inv.options.nullText = v
        },
        OptionSpec(long: "width", short: "w", value: "N", group: "Layout",
                   help: "container width in columns; 0 is unlimited (default: the terminal's, else $COLUMNS, else unlimited)", brief: "container width in columns; 0 is unlimited") { inv, v throws(UsageError) in
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
                   help: "auto (a table; at a compact width, under 60 columns or fewer than 3 fitting, a list report), table (columns that do not fit are left out, with a note), list, pages (bands of columns, the first repeated)", choices: ["auto", "table", "list", "pages"], brief: "auto, table, list or pages") { inv, v throws(UsageError) in
            guard let mode = LayoutMode(rawValue: v) else { throw invalid("--layout", v, "auto, table, list, pages") }
            inv.options.layout = mode
        },
        OptionSpec(long: "list-report", short: nil, value: nil, group: "Layout",
                   help: "the same as --layout list: one block per row, a Label  value line per field", brief: "one block per row (a narrow CI log)") { inv, _ in
            inv.options.layout = .list
        },
        OptionSpec(long: "columns", short: nil, value: "A,B,…", group: "Layout",
                   help: "choose and order the columns: names as in the input, numbers from 1, ranges (2-5, 3-), and !NAME to leave one out",
                   brief: "choose and order columns: names, numbers, 2-5, !notes") { inv, v throws(UsageError) in
            let items = try list(v, "--columns", "names, numbers or ranges separated by commas")
            let selection = ColumnSelection(items, excluding: inv.options.columns?.excluded ?? [])
            inv.options.columns = selection
        },
        OptionSpec(long: "exclude", short: nil, value: "A,B,…", group: "Layout",
                   help: "leave these columns out (names, numbers or ranges); the same as !A,!B in --columns") { inv, v throws(UsageError) in
            let items = try list(v, "--exclude", "names, numbers or ranges separated by commas")
            var selection = inv.options.columns ?? ColumnSelection([])
            selection.excluded += items.map { ColumnSelection.Item($0.hasPrefix("!") ? String($0.dropFirst()) : $0) }
            inv.options.columns = selection
        },
        OptionSpec(long: "limit", short: nil, value: "N", group: "Layout",
                   help: "show the first N rows, then a note of how many more", brief: "the first N rows, then how many more") { inv, v throws(UsageError) in
            guard let n = Int(v), n >= 0 else { throw invalid("--limit", v, "a number of rows") }
            inv.options.limit = n
        },
        OptionSpec(long: "sort", short: nil, value: "[-]COL,…", group: "Layout",
                   help: "sort by columns, -COL descending; numbers by value, text by Unicode order (ISO dates written alike in time order); stable; empty cells last (past --memory-limit, in sorted runs on disk under TMPDIR, merged)", brief: "sort by columns, -COL descending") { inv, v throws(UsageError) in
            let keys = try list(v, "--sort", "column names or numbers, -COL for descending")
            guard !keys.contains("-") else { throw invalid("--sort", v, "column names or numbers, -COL for descending") }
            inv.options.sort = keys.map(SortKey.init)
        },
        OptionSpec(long: "memory-limit", short: nil, value: "N[K|M|G]", group: "Layout",
                   help: "the memory --sort and --group-by may hold before they sort in runs on disk (default 64M; K, M, G are 1024, 1024², 1024³ bytes; at least 1M)") { inv, v throws(UsageError) in
            guard let bytes = memorySize(v, atLeast: 1 << 20) else { throw invalid("--memory-limit", v, "a size of at least 1M, such as 64M, 1536K or 2G") }
            inv.options.memoryLimit = bytes
        },
        OptionSpec(long: "max-row-size", short: nil, value: "N[K|M|G]", group: "Input",
                   help: "the most bytes one row may take (the header row and a JSON row's keys too); a longer row is an error, exit 65 (default 256M; at least 1K)") { inv, v throws(UsageError) in
            guard let bytes = memorySize(v, atLeast: 1 << 10) else { throw invalid("--max-row-size", v, "a size such as 256M, 64K or 1G, at least 1K") }
            inv.options.maxRowSize = bytes
        },
        OptionSpec(long: "group-by", short: nil, value: "COL", group: "Layout",
                   help: "a section per value with its row count, and a footer of sums (past --memory-limit, in runs on disk)", brief: "a section per value, with sums") { inv, v throws(UsageError) in
            guard !v.isEmpty else { throw invalid("--group-by", v, "a column name or number") }
            inv.options.groupBy = ColumnReference(v)
        },
        OptionSpec(long: "footer", short: nil, value: "sum|none", group: "Layout",
                   help: "what ends each group: the sums of its numeric columns (default), or nothing", choices: ["sum", "none"]) { inv, v throws(UsageError) in
            guard v == "sum" || v == "none" else { throw invalid("--footer", v, "sum, none") }
            inv.options.groupFooter = v == "sum"
        },
        OptionSpec(long: "title", short: nil, value: "TEXT", group: "Layout",
                   help: "a title above the output", brief: "a title above the output") { inv, v in
            inv.options.title = v
        },
        OptionSpec(long: "ambiguous-wide", short: nil, value: nil, group: "Layout",
                   help: "count East Asian ambiguous-width characters as two columns (CJK terminals)") { inv, _ in
            inv.options.ambiguousWide = true
        },
        OptionSpec(long: "format", short: "f", value: "FMT", group: "Output",
                   help: "plain, ansi, markdown or html (default: ansi on a terminal unless NO_COLOR or TERM=dumb, else plain). html: one page with its style and script inline (sticky header and first column, sort on a heading, a row's sheet, select and copy as CSV, prints as a list report)", choices: ["plain", "ansi", "markdown", "html"], brief: "plain, ansi, markdown or html") { inv, v throws(UsageError) in
            guard let format = OutputFormat(rawValue: v) else { throw invalid("--format", v, "plain, ansi, markdown, html") }
            inv.format = format
        },
        OptionSpec(long: "fragment", short: nil, value: nil, group: "Output",
                   help: "with -f html: only a table's markup (table, thead, tbody, tr, th, td, details, summary; no style, class or script), for a CI summary or a pull-request comment") { inv, _ in
            inv.options.htmlFragment = true
        },
        OptionSpec(long: "color", short: nil, value: "WHEN", group: "Output",
                   help: "auto, always or never: whether the default format is ansi (FORCE_COLOR and CLICOLOR_FORCE mean always)", choices: ["auto", "always", "never"]) { inv, v throws(UsageError) in
            guard v == "auto" || v == "always" || v == "never" else { throw invalid("--color", v, "auto, always, never") }
            inv.color = v
        },
        OptionSpec(long: "no-color", short: nil, value: nil, group: "Output",
                   help: "the same as --color never", brief: "plain text, even on a terminal") { inv, _ in
            inv.color = "never"
        },
        OptionSpec(long: "style", short: nil, value: "STYLE", group: "Output",
                   help: "rule (headings over a rule, the default), box, ascii or compact", choices: ["rule", "box", "ascii", "compact"]) { inv, v throws(UsageError) in
            guard let style = TableStyle(rawValue: v) else { throw invalid("--style", v, "rule, box, ascii, compact") }
            inv.options.style = style
        },
        OptionSpec(long: "zebra", short: nil, value: nil, group: "Output",
                   help: "alternate rows on a background (ansi, html)") { inv, _ in
            inv.options.zebra = true
        },
        OptionSpec(long: "view", short: nil, value: "WHEN", group: "Output",
                   help: "auto, always or never: open the table as a live view in the terminal (scroll, sort, search, select; ? lists the keys). auto (or TABLEFMT_VIEW): when standard output is a terminal and the table does not fit the screen. always with standard output redirected draws on the terminal and writes the selected rows as CSV",
                   choices: ["auto", "always", "never"], brief: "auto|always|never: the live view (? lists its keys)") { inv, v throws(UsageError) in
            guard let mode = ViewWhen(rawValue: v) else { throw invalid("--view", v, "auto, always, never") }
            inv.view = mode
        },
        OptionSpec(long: "help", short: "h", value: nil, group: "Other",
                   help: "-h: a short usage; --help: every option") { inv, name in
            inv.help = name == "-h" ? .short : .full
        },
        OptionSpec(long: "version", short: "V", value: nil, group: "Other", help: "show the version") { inv, _ in
            inv.showVersion = true
        },
        OptionSpec(long: "generate", short: nil, value: "KIND", group: "Other",
                   help: "print the man page (man) or a completion script (bash, zsh, fish) and exit; make install uses it",
                   choices: Generated.allCases.map(\.rawValue)) { inv, v throws(UsageError) in
            guard let kind = Generated(rawValue: v) else { throw invalid("--generate", v, "man, bash, zsh, fish") }
            inv.generate = kind
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
                try spec.apply(&inv, shown)
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
                if arg == "-" && inv.files.contains("-") { throw UsageError(message: "standard input ('-') named twice") }
                inv.files.append(arg)
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
                        let whole = arg.count > 2 ? " in '\(arg)'" : ""
                        let hint = arg.count > 2 ? " (a file whose name starts with -: put -- before it)" : suggestion(for: String(c))
                        throw UsageError(message: "unknown option '-\(c)'\(whole)" + hint)
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
        if inv.options.htmlFragment && inv.format != .html {
            throw UsageError(message: "--fragment: only with -f html (it is the HTML without a page around it)")
        }
        return inv
    }

    /// Other spellings of options.
    static func alias(_ name: String) -> OptionSpec? {
        nil
    }

    /// A comma-separated value's items, trimmed; none may be empty.
    static func list(_ v: String, _ option: String, _ expected: String) throws(UsageError) -> [String] {
        let items = v.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        guard !items.contains(where: \.isEmpty) else { throw invalid(option, v, expected) }
        return items
    }

    /// `64M`, `512K`, `2G`, `1048576` (optionally with a `B`: `64MB`); nil below 1 MiB or unreadable.
    /// A size written `64M`, `512K`, `2G` or in bytes, no less than `atLeast`.
    static func memorySize(_ text: String, atLeast minimum: Int) -> Int? {
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        var scale = 1
        switch digits.last {
        case "K": scale = 1 << 10
        case "M": scale = 1 << 20
        case "G": scale = 1 << 30
        default: break
        }
        if scale > 1 { digits = digits.dropLast() }
        guard let n = Int(digits), n > 0, n <= Int.max / scale, n * scale >= minimum else { return nil }
        return n * scale
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

    /// Matches the newest entry in CHANGELOG.md.
    static let version = "tablefmt 0.1.0"
}
