// Each use of the library's front door, as README shows it. Run: swift run --package-path Examples
import FormatEngine

// 1. Rows you already have, under headings; nil is an empty cell.
var options = FormatOptions()
options.width = 60
print(try TableFormatter.string(rows: [["Ada", "36", "1.65"], ["Grace", nil, "1.70"]],
                                headings: ["name", "age", "height_m"], options: options), terminator: "")

// 2. Any Encodable values: their properties are the columns.
struct Run: Encodable { var test: String; var seconds: Double; var passed: Bool; var note: String? }
let runs = [Run(test: "parse", seconds: 0.25, passed: true, note: nil),
            Run(test: "render", seconds: 1.5, passed: false, note: "width 40")]
print(try TableFormatter.string(encoding: runs), terminator: "")

// 3. A file (CSV, TSV, JSON, gzip too) into any byte sink as it is read (DescriptorSink(fd: 1)
//    is standard output; a MemorySink here, so the output stays in order with print's).
let path = CommandLine.arguments.dropFirst().first ?? "../Fixtures/examples/orders.csv"
let sink = MemorySink()
let warnings = try TableFormatter.write(file: path, options: options, to: sink)
print(sink.text, terminator: "")
for warning in warnings { print("warning:", warning) }

// 4. Errors are thrown with the rule and the place.
do {
    _ = try TableFormatter.string(file: "/no/such/file.csv")
} catch {
    print("error:", error)
}
