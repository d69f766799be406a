/// A reader of rows: CSV/TSV or JSON.
package protocol RecordReader {
    /// Column names the reader knows itself (JSON keys, first-seen order), or nil when the first
    /// record is a header row (CSV, TSV).
    var columnNames: [String]? { get }
    /// Reads the next record; its fields line up with `columnNames` when the reader has them.
    /// - Returns: false at the end of the input.
    mutating func read(into record: inout Record) throws(InputError) -> Bool
    /// Warnings about the input, in plain words, collected while reading.
    var warnings: [String] { get }
}

extension CSVReader: RecordReader {
    package var columnNames: [String]? { nil }
    package var warnings: [String] { [] }
}

/// Rows given in memory, each made a record as it is: no text format between (no quoting, no
/// delimiter, no encoding), so every value comes out exactly as given. A `nil` cell is an empty
/// field, as `""` is.
struct RowsReader: RecordReader {
    private let rows: [[String?]]
    private var next = 0

    package init(_ rows: [[String?]]) { self.rows = rows }

    /// None: the headings are given beside the rows.
    package var columnNames: [String]? { nil }
    package var warnings: [String] { [] }

    /// The next row's cells; its line is its place counting the headings as line 1.
    package mutating func read(into record: inout Record) throws(InputError) -> Bool {
        record.clear()
        guard next < rows.count else { return false }
        for cell in rows[next] { record.append(cell ?? "") }
        next += 1
        record.line = next + 1
        return true
    }
}

/// Rows and their headings in memory as an input: `TableInput` reads them as records through a
/// `RowsReader`, not as bytes.
package struct RowsInput: InputProvider {
    package let headings: [String]
    package let rows: [[String?]]

    package init(headings: [String], rows: [[String?]]) {
        self.headings = headings
        self.rows = rows
    }
    package var name: String { "<rows>" }
    package var path: String? { nil }
    /// Read twice, as a regular file is (sized from every row, then drawn).
    package var isRereadable: Bool { true }
    /// No bytes: the rows are not text. An empty source, for a caller that opens every input.
    package func open() throws(InputError) -> any ByteSource { MemorySource([]) }
}

/// Where a table comes from: the executable opens files and stdin, tests use memory.
public protocol InputProvider {
    /// The input's name in messages (`data.csv`, `<stdin>`).
    var name: String { get }
    /// The path, for choosing a format by extension; nil for stdin.
    var path: String? { get }
    /// Whether `open()` can be called again to read the same bytes (a regular file).
    var isRereadable: Bool { get }
    /// Opens the input from its start.
    func open() throws(InputError) -> any ByteSource
}

/// Bytes in memory as an input (tests, and anything already read).
public struct MemoryInput: InputProvider {
    /// How messages name it.
    public var name: String
    /// A file name to take the format from by its extension, if any.
    public var path: String?
    /// Whether it is read twice, as a regular file is (sized from every row).
    public var isRereadable: Bool
    /// The input.
    public var bytes: [UInt8]
    /// Bytes handed out per read.
    public var chunkSize: Int

    /// Bytes in memory as an input.
    public init(_ bytes: [UInt8], name: String = "<stdin>", path: String? = nil, isRereadable: Bool = true, chunkSize: Int = 1 << 16) {
        self.bytes = bytes
        self.name = name
        self.path = path
        self.isRereadable = isRereadable
        self.chunkSize = chunkSize
    }

    /// Text's UTF-8 as an input.
    public init(_ text: String, name: String = "<stdin>", path: String? = nil, isRereadable: Bool = true, chunkSize: Int = 1 << 16) {
        self.init(Array(text.utf8), name: name, path: path, isRereadable: isRereadable, chunkSize: chunkSize)
    }

    /// The bytes from the start.
    public func open() throws(InputError) -> any ByteSource { MemorySource(bytes, chunkSize: chunkSize) }
}
