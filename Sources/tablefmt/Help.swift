import FormatEngine

/// Everything made from the one option table: `-h`, `--help`, the man page and the completions.
enum Help {
    static let summary = "turn CSV, TSV or JSON into a table a person can read"
    static let usageLine = "tablefmt [OPTIONS] [FILE...]"

    static let examples: [(command: String, meaning: String)] = [
        ("tablefmt sales.csv", "a table sized to the terminal"),
        ("curl -s api/items.csv | tablefmt", "from a pipe: sized from the first 1000 rows"),
        ("tablefmt -w 80 report.tsv >> ci.log", "a fixed width for a CI log"),
        ("tablefmt results/*.csv", "one table per file, titled by its name"),
        ("tablefmt export.csv.gz", "gzip is read as it is"),
        ("tablefmt --no-header -d ';' data.txt", "semicolons, no header row"),
        ("tablefmt -w 60 --wrap 2 notes.csv", "long text on two lines instead of one"),
        ("tablefmt -w 40 --list-report results.csv", "a narrow CI log: one block per row"),
        ("tablefmt --sort -qty --limit 10 s.csv", "the ten largest orders"),
        ("tablefmt --columns '1,3-5,!notes' s.csv", "columns by number and range, one left out (quoted: ! is special to bash)"),
        ("tablefmt --group-by region s.csv", "a section per region, with sums"),
        ("tablefmt -f markdown r.json >> \"$GITHUB_STEP_SUMMARY\"", "a Markdown table for a CI summary"),
        ("tablefmt -f html results.csv > results.html", "one page to open, sort and print in a browser"),
        ("tablefmt -f html --fragment r.csv >> \"$GITHUB_STEP_SUMMARY\"", "an HTML table for a CI summary"),
        ("tablefmt --view always s.csv > picked.csv", "pick rows in the live view (Space, then q): CSV out"),
        ("tablefmt --follow app.csv", "a growing log, as tail -F (rotation too): the view follows new rows; printed, they stream"),
        ("tablefmt --view always s.csv", "edit in the view (e, +, d, J/K, u), then w: only the rows changed differ"),
    ]

    static let environment: [(name: String, meaning: String)] = [
        ("COLUMNS", "the width when standard output is not a terminal"),
        ("NO_COLOR", "set and not empty: plain output by default (https://no-color.org)"),
        ("TERM", "dumb: plain output by default"),
        ("FORCE_COLOR, CLICOLOR_FORCE", "set and not 0 or false: ANSI output even in a pipe"),
        ("TABLEFMT_VIEW", "auto, always or never: when the live view opens (--view wins)"),
        ("TMPDIR", "where temporary files go, each removed at once: rows the live view cannot find again in their file, --sort runs past --memory-limit, where a large CSV or TSV file's fields lie"),
        ("TABLEFMT_DEBUG", "layout: explain on standard error how the layout was chosen"),
    ]

    /// Every exit status the tool uses (E1).
    static let exitStatuses: [(code: Int, meaning: String)] = ExitStatus.allCases.map { (Int($0.code), $0.meaning) }

    // MARK: -h

    /// The short usage: the options marked `brief`, three examples, where to read more (≤ 25 lines).
    static var short: String {
        var lines = ["Usage: \(usageLine)", "tablefmt: \(summary).", "Reads each FILE (gzip too), or standard input when there is none or it is -.", ""]
        let briefs = Arguments.specs.filter { $0.brief != nil }
        let pad = (briefs.map { $0.synopsis.count }.max() ?? 0) + 4
        for spec in briefs {
            lines.append("  " + spec.synopsis.padding(to: pad) + (spec.brief ?? ""))
        }
        lines += ["", "Examples:"]
        for example in [examples[0], examples[7], examples[11]] { lines.append("  " + example.command) }
        lines += ["", "Every option: tablefmt --help, or man tablefmt."]
        return lines.joined(separator: "\n")
    }

    // MARK: --help

    /// Every option, grouped, wrapped to `width` columns (the terminal's, else 80).
    static func full(width: Int) -> String {
        let width = max(40, width)
        let measure = DisplayWidth()
        let column = 28
        func wrapped(_ text: String, indent: Int) -> [String] {
            measure.fit(text, width: width - indent, maxLines: Int.max, ellipsis: .end).map(\.text)
        }
        /// `head` in the first `column` columns, `text` wrapped beside it (or below, when `head` is long).
        func entry(_ head: String, _ text: String) -> [String] {
            let body = wrapped(text, indent: column)
            let gap = String(repeating: " ", count: column)
            if head.count + 2 <= column {
                return [head.padding(to: column) + (body.first ?? "")] + body.dropFirst().map { gap + $0 }
            }
            return [head] + body.map { gap + $0 }
        }
        var lines = wrapped("tablefmt — \(summary)", indent: 0)
        lines += ["", "Usage: \(usageLine)"]
        lines += wrapped("Reads each FILE, or standard input when there is none or it is -. gzip input is read as it is. Several files print one table each, titled by the file name.", indent: 0)
        for group in Arguments.groups {
            lines += ["", "\(group):"]
            for spec in Arguments.specs where spec.group == group {
                lines += entry("  " + spec.synopsis, spec.help)
            }
        }
        lines += ["", "Keys in the live view (--view):"]
        for key in ViewHelp.keys { lines += entry("  " + key.keys, key.meaning) }
        lines += ["", "Examples:"]
        for example in examples {
            lines += wrapped(example.command, indent: 2).map { "  " + $0 }
            lines += wrapped(example.meaning, indent: 6).map { "      " + $0 }
        }
        lines += ["", "Environment:"]
        for variable in environment { lines += entry("  " + variable.name, variable.meaning) }
        lines += ["", "Exit status:"]
        for status in exitStatuses { lines += entry("  \(status.code)", status.meaning) }
        lines += [""] + wrapped("The rules tablefmt follows, with their ids (I2, W5, …), are in docs/RULES.md of its source; man tablefmt has this help too.", indent: 0)
        return lines.joined(separator: "\n")
    }

    // MARK: man page

    /// `tablefmt.1` in roff (man(7) macros).
    static var manPage: String {
        var out = [
            ".TH TABLEFMT 1 \"\" \"\(Arguments.version)\" \"User Commands\"",
            ".SH NAME",
            "tablefmt \\- \(roff(summary))",
            ".SH SYNOPSIS",
            ".B tablefmt",
            "[\\fIOPTIONS\\fR] [\\fIFILE\\fR...]",
            ".SH DESCRIPTION",
            roff("tablefmt reads CSV, TSV, JSON or JSON Lines from each FILE, or from standard input when there is none or it is -, and writes a table sized to the terminal or to --width: headings title-cased with units moved into them, numbers right-aligned on their decimal points, text cut with an ellipsis where it does not fit, and columns that do not fit named in a note. Output is plain text, ANSI-styled text or Markdown. Control characters in the data are shown as visible escapes, never sent to the terminal."),
            ".PP",
            roff("Input compressed with gzip is decompressed, whatever the file is called. With several files, each is printed as its own table titled by its file name; a file that cannot be read is reported and the others are still printed."),
        ]
        for group in Arguments.groups {
            out.append(".SH \(roff(group.uppercased()))")
            for spec in Arguments.specs where spec.group == group {
                var names = spec.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
                names += "\\fB\\-\\-\(roff(spec.long))\\fR"
                if let value = spec.value { names += " \\fI\(roff(value))\\fR" }
                out += [".TP", names, roff(spec.help)]
            }
        }
        out.append(".SH KEYS IN THE LIVE VIEW")
        out.append(roff("In a terminal, a table that does not fit the screen opens as a live view (--view auto), with these keys:"))
        for key in ViewHelp.keys { out += [".TP", "\\fB\(roff(key.keys))\\fR", roff(key.meaning)] }
        out.append(".SH EXAMPLES")
        for example in examples {
            out += [".TP", "\\fB\(roff(example.command))\\fR", roff(example.meaning)]
        }
        out.append(".SH ENVIRONMENT")
        for variable in environment { out += [".TP", "\\fB\(roff(variable.name))\\fR", roff(variable.meaning)] }
        out.append(".SH EXIT STATUS")
        for status in exitStatuses { out += [".TP", "\\fB\(status.code)\\fR", roff(status.meaning)] }
        out += [".SH SEE ALSO", "\\fBcolumn\\fR(1), \\fBmlr\\fR(1); docs/RULES.md in the tablefmt source for every rule by its id."]
        return out.joined(separator: "\n") + "\n"
    }

    /// Text safe in a roff line: backslashes as `\e`, dashes as `\-`, other than ASCII as `\[uXXXX]`,
    /// and a leading `.` or `'` guarded so it is not read as a request.
    static func roff(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    // MARK: completions

    static func completion(_ shell: Generated) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        case .man: return manPage
        }
    }

    /// bash: option names; an enumerated option's values; files elsewhere.
    static var bash: String {
        let specs = Arguments.specs
        let words = specs.flatMap { spec in [spec.short.map { "-\($0)" }, "--\(spec.long)"].compactMap { $0 } }
        var cases: [String] = []
        for spec in specs where spec.value != nil {
            let names = ([spec.short.map { "-\($0)" }, "--\(spec.long)"].compactMap { $0 }).joined(separator: "|")
            if spec.choices.isEmpty {
                cases.append("        \(names)) return ;;")
            } else {
                cases.append("        \(names)) COMPREPLY=($(compgen -W '\(spec.choices.joined(separator: " "))' -- \"$cur\")); return ;;")
            }
        }
        return """
        # bash completion for tablefmt (made by: tablefmt --generate bash)
        _tablefmt() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            case $prev in
        \(cases.joined(separator: "\n"))
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- "$cur"))
                return
            fi
            COMPREPLY=($(compgen -f -- "$cur"))
        }
        complete -o filenames -o bashdefault -F _tablefmt tablefmt

        """
    }

    /// zsh: `_arguments` with descriptions, values and files.
    static var zsh: String {
        func described(_ text: String) -> String {
            var out = ""
            for c in text {
                switch c {
                case "[", "]", ":", "\\": out += "\\\(c)"
                case "'": out += "'\\''"
                default: out.append(c)
                }
            }
            return out
        }
        var lines: [String] = []
        for spec in Arguments.specs {
            let names = [spec.short.map { "-\($0)" }, "--\(spec.long)"].compactMap { $0 }
            let exclusive = names.count > 1 ? "(\(names.joined(separator: " ")))" : ""
            let head = names.count > 1 ? "'\(exclusive)'{\(names.joined(separator: ","))}'" : "'\(names[0])"
            var argument = ""
            if let value = spec.value {
                let action = spec.choices.isEmpty ? " " : "(\(spec.choices.joined(separator: " ")))"
                argument = ":\(described(value)):\(action)"
            }
            lines.append("    \(head)[\(described(spec.help))]\(argument)'")
        }
        lines.append("    '*:file:_files'")
        return """
        #compdef tablefmt
        # zsh completion for tablefmt (made by: tablefmt --generate zsh)
        _arguments -s -S \\
        \(lines.joined(separator: " \\\n"))

        """
    }

    /// fish: one `complete` line per option.
    static var fish: String {
        func quoted(_ text: String) -> String { "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'" }
        var lines = ["# fish completion for tablefmt (made by: tablefmt --generate fish)"]
        for spec in Arguments.specs {
            var line = "complete -c tablefmt"
            if let short = spec.short { line += " -s \(short)" }
            line += " -l \(spec.long)"
            if spec.value != nil {
                line += spec.choices.isEmpty ? " -r" : " -x -a \(quoted(spec.choices.joined(separator: " ")))"
            }
            line += " -d \(quoted(spec.help))"
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Padded with spaces to `count` characters (never cut).
    func padding(to count: Int) -> String {
        self + String(repeating: " ", count: Swift.max(0, count - self.count))
    }
}
