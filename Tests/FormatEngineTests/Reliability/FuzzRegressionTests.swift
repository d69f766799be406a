import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

extension Reliability {
    /// Inputs the libFuzzer targets in `Fuzz/` found (docs/FUZZING.md), minimized, kept as tests.
    /// Each case names the target, the raw fuzz input (control bytes, then the input proper) and the
    /// options those control bytes chose, and asserts the outcome the spec asks for.
    ///
    /// A case whose bug is not fixed yet is wrapped in `withKnownIssue`: the suite stays green, and the
    /// test fails ("known issue was not recorded") the day the bug is fixed, so the wrapper is removed.
    @Suite("Reliability: fuzz regressions")
    struct FuzzRegressionTests {
        typealias Kit = ReliabilityKit

        /// Display width of a line, with tablefmt's own SGR codes taken out.
        static func width(_ line: Substring, ambiguousWide: Bool = false) -> Int {
            var text = ""
            var scalars = line.unicodeScalars[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if scalar == "\u{1B}" {  // ESC [ digits ; m
                    while let next = scalars.first, next != "m" { scalars = scalars.dropFirst() }
                    scalars = scalars.dropFirst()
                    continue
                }
                text.unicodeScalars.append(scalar)
            }
            return DisplayWidth(ambiguousIsWide: ambiguousWide).width(of: text)
        }

        // MARK: - pipeline target

        /// Found by the pipeline target in its first minute (crash-10e6ef39…, minimized to 17 bytes):
        /// `d5 28 01 00 00 00 00 31 35 36 37` then `8\n1\n,1`. The control bytes chose: ANSI, layout
        /// table, style box, `--wrap 2`, a pipe, `--width 40`, UTF-8, `--window 1`, `--fill`, `--zebra`,
        /// `-d ' '`, `--footer none`, `--title Fuzz`, 55-byte chunks.
        ///
        /// The first row (`1`) sizes the number column: integer part 1, no fraction; `--fill` makes it
        /// 36 wide. The streamed row `,1` is a number with a 2-column fraction; before e3dcbd7
        /// `PlainRenderer.cell` padded it as if its fraction were the window's (0): 36 − 1 + 1 spaces,
        /// then `,1`: 38 columns in a 36-column cell, and the line was 42 wide under `--width 40`.
        /// (`--wrap 2` is left out below: the row needs one line anyway, and a regression into the
        /// two-line path would trap this test process, see `streamedNumberInWrappedRow`.)
        static let streamedFraction: [UInt8] = [0xD5, 0x28, 0x01, 0x00, 0x00, 0x00, 0x00, 0x31, 0x35, 0x36, 0x37, 0x38, 0x0A, 0x31, 0x0A, 0x2C, 0x31]

        @Test("W1, O2: a number streamed after the sizing window with a wider fraction stays in its column (fuzz: pipeline)")
        func streamedNumberWithWiderFraction() throws {
            let input = Array(Self.streamedFraction.dropFirst(11))
            let options = Kit.options(width: 40) {
                $0.format = .ansi
                $0.layout = .table
                $0.style = .box
                $0.window = 1
                $0.fill = true
                $0.zebra = true
                $0.delimiter = UInt8(ascii: " ")
                $0.groupFooter = false
                $0.title = "Fuzz"
            }
            let output = try Kit.format(input, options: options, chunkSize: 55, rereadable: false)
            #expect(output.result.error == nil)
            let lines = output.lines
            // O2: a boxed table's lines are all as wide as its top border; W1: none is wider than 40.
            let border = try #require(lines.first { $0.hasPrefix("\u{1B}[2m┌") || $0.hasPrefix("┌") })
            // Fixed in e3dcbd7: such numbers are right-aligned in the column.
            for line in lines where line.contains("│") {
                #expect(Self.width(line) == Self.width(border), "\(line.debugDescription)")
                #expect(Self.width(line) <= 40)
            }
        }

        /// Found by the pipeline target (crash-1288264a…, a trap, minimized to 23 bytes:
        /// `d5 28 00 00 00 00 00 01 00 01 33` then `L\r,2,\n,.6,\0\0`). The control bytes chose: ANSI,
        /// table, box, `--wrap 2`, a pipe, `--width 40`, `--window 1`, 2-byte chunks. The window's `2`
        /// sizes column 2 with no fraction; the streamed row has `.6` there (a 2-column fraction) and
        /// a `\0\0` cell too wide for one line, so the row takes `PlainRenderer.wrappedRow`, which
        /// before e3dcbd7 computed `trail = parts.fraction - number.fraction = -2` and called
        /// `String(repeating: " ", count: -2)`: "Fatal error: Negative count not allowed", SIGILL,
        /// exit 132 (PlainRenderer+Cells.swift:134). `lead` went negative the same way for a streamed
        /// number with a longer integer part: any pipe with `--wrap 2` whose rows after the first
        /// 1,000 carried more decimals than the first 1,000 crashed. Run in a child process: a trap
        /// in this test process would end the whole suite.
        @Test("E5: a streamed number with more decimals than the window, in a two-line row, does not trap (fuzz: pipeline)",
              arguments: [
                  ["L\r,2,\n,.6,\0\0", "-f", "ansi", "--layout", "table", "--style", "box", "--wrap", "2", "-w", "40", "--window", "1"],
                  ["amount,note\n1,a\n1.25,bb cc dd ee ff gg\n", "-w", "20", "--window", "1", "--wrap", "2"],
                  ["amount,note\n1.25,a\n123456,bb cc dd ee ff gg\n", "-w", "20", "--window", "1", "--wrap", "2"],
              ])
        func streamedNumberInWrappedRow(case arguments: [String]) throws {
            let input = try Kit.temporaryFile("in.csv", Array(arguments[0].utf8))
            defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
            let script = "cat \"$1\" | \"$0\" \"${@:2}\""
            let run = try Kit.runBounded(["-c", script, TestPaths.binary.path, input.path] + arguments.dropFirst(), seconds: 10, program: "/bin/bash")
            #expect(!run.timedOut)
            // Fixed in e3dcbd7 (was a trap: exit 132).
            #expect(run.status == 0, "status \(run.status.map(String.init) ?? "signal") \(run.stderr.prefix(120))")
            #expect(!run.stderr.contains("Fatal error"))
        }

        @Test("O2: the same bug without --fill: columns after a streamed number shift right")
        func streamedNumberShiftsColumns() throws {
            // `printf 'amount,b\n1,x\n1.25,y\n' | tablefmt -w 0 --window 1`
            let output = try Kit.format(Array("amount,b\n1,x\n1.25,y\n".utf8), options: Kit.options(width: nil) { $0.window = 1 }, rereadable: false)
            let lines = output.lines
            #expect(lines.prefix(3) == ["Amount  B", "──────  ─", "     1  x"])
            // Fixed in e3dcbd7 (was '     1.25  y').
            #expect(lines == ["Amount  B", "──────  ─", "     1  x", "  1.25  y"])
        }

        // MARK: - pipeline target, the note for rows with no fields

        /// Found by the pipeline target in the second session (crash-715ff731…): JSON rows that
        /// are all `{}` give no columns, and the note saying so was written at its full width.
        @Test("W1, W14: the note for rows with no fields is wrapped to the width (fuzz: pipeline)")
        func noFieldsNote() throws {
            for width in [10, 16, 40] {
                let output = try Kit.format(Array("{}\n{}\n".utf8), options: Kit.options(width: width) { $0.inputFormat = .jsonl })
                #expect(output.result.error == nil)
                for line in output.lines { #expect(Self.width(line) <= width, "\(width): \(line.debugDescription)") }
                #expect(output.lines.joined(separator: " ") == "(2 rows with no fields)", "\(output.lines)")
            }
        }

        // MARK: - pipeline target, groups in a bordered list report

        /// Found by the pipeline target (crash-dbb5d507…, minimized to 14 bytes:
        /// `20 20 6f 53 65 71 75 65 65 20 20` then three spaces). The control bytes chose: plain,
        /// layout auto, style ascii, `--width 32`, `--no-header`, `--sort 3`, `--group-by 2`,
        /// `--limit 11`, `--window 5`, `--fill`, `--zebra`, `--units keep`, `-d ' '`, `--title Fuzz`,
        /// `--null ∅`. Four empty columns do not fit 32 columns, so auto makes a list report; each
        /// group heading is still drawn as a table border and a boxed line sized to the table's
        /// natural columns (`+--------+…+`, 37 wide), and in the box style with stray junctions and
        /// no closing border (until e3dcbd7). The original input (a CSV of cabinet members) gave a 181-wide line
        /// under `--width 110`.
        @Test("W8, W12, W1: group headings in a list report are not table borders, and fit the width (fuzz: pipeline)",
              arguments: [TableStyle.ascii, .box])
        func groupsInBorderedListReport(style: TableStyle) throws {
            let input = Array("region,name,qty\nEast,widget with a long name here,1\nWest,gadget,2\n".utf8)
            let options = Kit.options(width: 30) {
                $0.layout = .list
                $0.style = style
                $0.groupBy = ColumnReference("region")
            }
            let output = try Kit.format(input, options: options)
            #expect(output.result.error == nil && output.result.usageError == nil)
            #expect(output.text.contains("Name  widget with a long name\n      here\n"), "the list report itself is right")
            // Fixed in e3dcbd7: list reports draw no borders.
            for line in output.lines {
                #expect(Self.width(line) <= 30, "\(line.debugDescription)")
                #expect(!["+", "|", "│", "├", "┌", "└"].contains(where: { line.hasPrefix($0) }), "\(line.debugDescription)")
            }
        }

        /// Found by the pipeline target after e3dcbd7 (crash-18ad540c…, 1,189 bytes: a list report,
        /// `--style box`, `--group-by 2`, `--width 40`, a CSV whose second column holds long text):
        /// the group heading `… (1 row)` was 189 columns wide. Group headings were fitted (cut) only in
        /// bordered tables; in the rule and compact styles and in list reports they were written
        /// whole (until 5c3d93c). `printf 'region,qty\nA very long region name that does not fit,1\n' | tablefmt -w 30
        /// --group-by region` printed a 57-column heading.
        @Test("W1, W12: group headings fit the width in every style and layout (fuzz: pipeline)",
              arguments: [(LayoutMode.table, TableStyle.rule), (.table, .compact), (.list, .rule), (.list, .box)])
        func groupHeadingsFitTheWidth(layout: LayoutMode, style: TableStyle) throws {
            let input = Array("region,qty\nA very long region name that does not fit,1\nWest,2\n".utf8)
            let options = Kit.options(width: 30) {
                $0.layout = layout
                $0.style = style
                $0.groupBy = ColumnReference("region")
            }
            let output = try Kit.format(input, options: options)
            #expect(output.text.contains("Region: West (1 row)"))
            // Fixed in 5c3d93c: outside bordered tables group headings wrap to the width.
            for line in output.lines {
                #expect(Self.width(line) <= 30, "\(line.debugDescription)")
            }
        }

        // MARK: - pipeline target, a timeout

        /// Found by the pipeline target (timeout-563ec370…, 3,605 bytes, 11 s under ASan): a header
        /// cell of 3,074 characters holding a CRLF and NULs, with `--layout pages`, `--width 30`.
        /// Before e3dcbd7 `Layout.twoLineWidth` tried every width from half the heading's to all of it,
        /// fitting the heading at each (O(length) apiece), until the two fitted lines joined by a space
        /// equalled the heading, which never happens when the heading holds a line break or a control
        /// character (the fitted text shows them escaped): O(length²) per heading. A two-line header cell of
        /// 1,000 words took 15 s (debug build), 2,000 words 60 s, 4,000 words 189 s.
        @Test("E5, C5: a long header cell holding a line break is laid out in bounded time (fuzz: pipeline, timeout)")
        func longMultiLineHeading() throws {
            let text = "\"line one\n" + String(repeating: "word ", count: 4_000) + "\"\n1\n"
            let url = try Kit.temporaryFile("heading.csv", Array(text.utf8))
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let run = try Kit.runBounded(["-w", "30", url.path], seconds: 10)
            // Fixed in e3dcbd7: a binary search over the widths.
            #expect(!run.timedOut, "still laying out after 10 s")
            #expect(run.status == 0)
            #expect(run.out.hasSuffix("─\n" + String(repeating: " ", count: 29) + "1\n"), "\(run.out.suffix(200))")
            #expect(run.signal == nil || run.timedOut)
        }

        // MARK: - pipeline target, W1 under --ambiguous-wide

        /// Found by the pipeline target on a conformance seed with `--ambiguous-wide`, box style,
        /// `--width 40`: the top border was 80 columns wide. With `--ambiguous-wide` (a CJK terminal)
        /// box drawing `─ │ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ┼` and the ellipsis `…` are East Asian Ambiguous and take 2
        /// columns, but the layout counted every one of them as 1 (until e3dcbd7).
        @Test("W1: with --ambiguous-wide, the tool's own rules, borders and ellipses fit the width too (fuzz: pipeline)",
              arguments: [TableStyle.rule, .box])
        func ambiguousWideDecorations(style: TableStyle) throws {
            let note = String(repeating: "long note text ", count: 6)
            let input = Array("name,note\nwidget,\(note)\n".utf8)
            let options = Kit.options(width: 40) {
                $0.ambiguousWide = true
                $0.style = style
                $0.layout = .table
            }
            let output = try Kit.format(input, options: options)
            // Fixed in e3dcbd7: under --ambiguous-wide rules use '-' and boxes ASCII.
            for line in output.lines {
                #expect(Self.width(line, ambiguousWide: true) <= 40, "\(line.debugDescription)")
            }
        }
    }
}
