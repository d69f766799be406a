import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// O3 and O5 on every format and layout: no control character from a cell reaches the output as
/// itself, plain and Markdown carry no escape sequence at all, and every ANSI line ends in a reset.
struct OutputSafetyTests {
    static let hostile = "name,note\n\"\u{1B}]0;pwned\u{07}\",\"\u{1B}[2J\u{1B}[H\"\n\"bs\u{08}\u{7F}\",\"csi\u{9B}31m\"\n\"cr\rhere\",ok\n"

    func render(_ format: OutputFormat, layout: LayoutMode, style: TableStyle = .rule, zebra: Bool = false) throws -> [UInt8] {
        var options = FormatOptions()
        options.format = format
        options.layout = layout
        options.style = style
        options.zebra = zebra
        options.width = 60
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput(Self.hostile), options: options, output: sink)
        return sink.bytes
    }

    static let combinations: [(OutputFormat, LayoutMode, TableStyle)] = {
        var out: [(OutputFormat, LayoutMode, TableStyle)] = []
        for format in OutputFormat.allCases {
            for layout in [LayoutMode.table, .list, .pages] {
                for style in TableStyle.allCases where format != .markdown || style == .rule { out.append((format, layout, style)) }
            }
        }
        return out
    }()

    @Test("O5: no control character from a cell reaches the output", arguments: combinations)
    func noRawControls(format: OutputFormat, layout: LayoutMode, style: TableStyle) throws {
        let bytes = try render(format, layout: layout, style: style, zebra: true)
        let text = String(decoding: bytes, as: UTF8.self)
        // BEL, backspace, DEL, CR and the C1 CSI never appear; ESC only as tablefmt's own SGR codes.
        for forbidden: UInt8 in [0x07, 0x08, 0x7F, 0x0D] { #expect(!bytes.contains(forbidden), "\(format) \(layout) \(style): byte \(forbidden)") }
        #expect(!text.unicodeScalars.contains("\u{9B}"))
        if format == .ansi {
            // Every ESC starts one of our own SGR sequences: ESC [ digits/; m
            var i = 0
            while i < bytes.count {
                if bytes[i] == 0x1B {
                    #expect(i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "["))
                    var k = i + 2
                    while k < bytes.count, bytes[k] == UInt8(ascii: ";") || bytes[k] &- 0x30 <= 9 { k += 1 }
                    #expect(k < bytes.count && bytes[k] == UInt8(ascii: "m"), "\(format) \(layout): a non-SGR escape")
                    i = k
                }
                i += 1
            }
            #expect(!text.contains("]0;pwned\u{07}"))
        } else {
            #expect(!bytes.contains(0x1B), "\(format) \(layout) \(style): an escape in \(format) output")
        }
        #expect(text.contains("\\x1b"))
    }

    @Test("O3: every ANSI line ends with a reset", arguments: [LayoutMode.table, .list, .pages])
    func ansiReset(layout: LayoutMode) throws {
        let text = String(decoding: try render(.ansi, layout: layout, zebra: true), as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            #expect(line.hasSuffix("\u{1B}[0m"), "line without a reset: \(line.debugDescription)")
        }
    }

    @Test("O3: ANSI headings are bold and the rule dim; plain has neither")
    func ansiStyling() throws {
        var options = FormatOptions()
        options.format = .ansi
        options.layout = .table
        let sink = MemorySink()
        _ = try TableFormatter.run(MemoryInput("a,b\n1,\n"), options: options, output: sink)
        let lines = sink.text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("\u{1B}[1mA\u{1B}[22m"))
        #expect(lines[1].hasPrefix("\u{1B}[2m─"))
    }
}

extension OutputFormat: CustomTestStringConvertible { public var testDescription: String { rawValue } }
extension LayoutMode: CustomTestStringConvertible { public var testDescription: String { rawValue } }
extension TableStyle: CustomTestStringConvertible { public var testDescription: String { rawValue } }
