import Foundation
import Testing
import FormatEngine

/// The library's front door (issue 18), used as a caller outside the module would (no
/// `@testable`): rows, `Encodable` values and files in, text out, errors thrown with rule and place.
@Suite("Front door")
struct FrontDoorTests {
    static let hostile: [String?] = ["Müller, Anna", "say \"hi\"", "two\nlines", " lead", "trail ", "", nil, "1,234.5", "42", "日本", "\u{1B}[2J", "=x", "#"]

    @Test("rows in memory: 300 generated tables give the table the same rows give as JSON Lines (another reader)")
    func rowsMatchJSONLines() throws {
        var random = SplitMix64(seed: 0xF00D)
        for round in 0..<300 {
            let columns = 1 + random.below(4)
            let headings = (0..<columns).map { "col_\($0)" }
            let rows: [[String?]] = (0..<random.below(8)).map { _ in (0..<columns).map { _ in Self.hostile[random.below(Self.hostile.count)] } }
            var options = FormatOptions()
            options.width = [nil, 40][random.below(2)]
            let text = try TableFormatter.string(rows: rows, headings: headings, options: options)
            // The same rows as JSON Lines, through the JSON reader: the same table.
            let lines = try rows.map { row -> String in
                var object: [String: Any] = [:]
                for (k, cell) in row.enumerated() { object[headings[k]] = cell ?? NSNull() }
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                return String(decoding: data, as: UTF8.self)
            }
            guard !rows.isEmpty else { continue }
            var jsonOptions = options
            jsonOptions.inputFormat = .jsonl
            let sink = MemorySink()
            try TableFormatter.write(MemoryInput(lines.joined(separator: "\n") + "\n"), options: jsonOptions, to: sink)
            #expect(text == sink.text, "round \(round)\n\(text)\n---\n\(sink.text)")
        }
    }

    struct Address: Encodable { var city: String; var zip: String? }
    struct Person: Encodable {
        var name: String
        var age: Int?
        var height_m: Double
        var address: Address
        var tags: [String]
        var active: Bool
    }

    @Test("Encodable values: properties are columns in order, nested as dotted names, nil an empty cell, arrays joined")
    func encodable() throws {
        let people = [
            Person(name: "Ada", age: 36, height_m: 1.65, address: Address(city: "London", zip: nil), tags: ["math", "code"], active: true),
            Person(name: "Grace", age: nil, height_m: 1.7, address: Address(city: "NYC", zip: "10001"), tags: [], active: false),
        ]
        let text = try TableFormatter.string(encoding: people)
        let expected = try TableFormatter.string(rows: [
            ["Ada", "36", "1.65", "London", nil, "math, code", "true"],
            ["Grace", nil, "1.7", "NYC", "10001", "", "false"],
        ], headings: ["name", "age", "height_m", "address.city", "address.zip", "tags", "active"])
        #expect(text == expected, "\(text)")
        #expect(text.hasPrefix("Name   Age  Height (m)  Address City  Address Zip  Tags        Active\n"), "\(text)")
        // Scalars encode as the column Value.
        #expect(try TableFormatter.string(encoding: [3, 1, 2]).hasPrefix("Value\n"))
    }

    @Test("files: the same table as the command line; a malformed file throws its rule and position")
    func files() throws {
        let orders = TestPaths.fixtures.appendingPathComponent("examples/orders.csv").path
        var options = FormatOptions()
        options.width = 80
        let text = try TableFormatter.string(file: orders, options: options)
        #expect(text == (try runTool(["-w", "80", orders])).out)
        let url = try ReliabilityKit.temporaryFile("bad.csv", Array("a,b\n1,2\n\"x,1\n".utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try TableFormatter.string(file: url.path)
            Issue.record("no error thrown")
        } catch {
            #expect(error.kind == .malformedInput)
            #expect(error.rule == "I2")
            #expect(error.position == SourcePosition(line: 3, column: 1))
            #expect(error.description.hasPrefix("\(url.path):3:1: "))
        }
        #expect(throws: FormatError.self) { try TableFormatter.string(file: "/no/such/file.csv") }
        var missing = FormatOptions()
        missing.columns = [.name("nope")]
        do {
            _ = try TableFormatter.string(file: orders, options: missing)
            Issue.record("no error thrown")
        } catch {
            #expect(error.kind == .noSuchColumn && error.rule == "W9")
        }
    }

    /// A caller's own sink: it sees the bytes as a `RawSpan`, lent for the call, and keeps a copy
    /// of each piece and how many pieces came.
    final class PiecesSink: OutputSink {
        var bytes: [UInt8] = []
        var pieces = 0
        func write(_ span: RawSpan) throws(OutputError) {
            pieces += 1
            for k in span.byteOffsets { bytes.append(span.unsafeLoad(fromByteOffset: k, as: UInt8.self)) }
        }
    }

    @Test("a caller's sink takes safe byte spans (RawSpan): what it collects is the table string(...) returns, on 100 generated tables")
    func callersSinkTakesSpans() throws {
        var random = SplitMix64(seed: 0x5EA)
        for round in 0..<100 {
            let rows: [[String?]] = (0..<(1 + random.below(300))).map { _ in [Self.hostile[random.below(Self.hostile.count)], "\(random.below(1000))"] }
            let csv = "name,n\n" + rows.map { row in row.map { cell in "\"" + (cell ?? "").replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") }.joined(separator: "\n") + "\n"
            let sink = PiecesSink()
            try TableFormatter.write(MemoryInput(csv), to: sink)
            let memory = MemorySink()
            try TableFormatter.write(MemoryInput(csv), to: memory)
            #expect(sink.pieces >= 1 && sink.bytes == memory.bytes, "round \(round)")
            #expect(String(decoding: sink.bytes, as: UTF8.self).contains("Name"), "round \(round)")
        }
    }

    @Test("write(file:to:) streams into any sink: a file descriptor here")
    func writeToDescriptor() throws {
        let orders = TestPaths.fixtures.appendingPathComponent("examples/orders.csv").path
        let folder = try ReliabilityKit.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.txt")
        #expect(FileManager.default.createFile(atPath: target.path, contents: nil))
        let handle = try FileHandle(forWritingTo: target)
        var options = FormatOptions()
        options.width = 0
        let warnings = try TableFormatter.write(file: orders, options: options, to: DescriptorSink(fd: handle.fileDescriptor))
        try handle.close()
        #expect(warnings.isEmpty)
        #expect(try String(contentsOf: target, encoding: .utf8) == (try runTool(["-w", "0", orders])).out)
    }
}
