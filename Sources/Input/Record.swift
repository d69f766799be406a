/// A position in the input, 1-based, for error messages.
public struct SourcePosition: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The byte column in the line, from 1.
    public var column: Int

    /// The place at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `3:7`.
    public var description: String { "\(line):\(column)" }
}

/// One row of input: every field's bytes stored back to back, plus where each field ends.
///
/// A reader fills the same `Record` again and again, so the hot path allocates nothing once the
/// buffers have grown to the widest row.
package struct Record: Sendable {
    /// The UTF-8 bytes of all fields, one after another, already unquoted and unescaped.
    package var bytes = ByteArray()
    /// `ends[i]` is the offset in `bytes` just past field `i`.
    package var ends = GrowableArray<Int>()
    /// The line the record starts on (1-based).
    package var line: Int = 0

    package init() {}

    /// Builds a record from strings (tests and small synthesized rows).
    package init(_ fields: [String], line: Int = 0) {
        for field in fields { append(field) }
        self.line = line
    }

    /// Number of fields.
    package var count: Int { ends.count }

    /// What a field counts for against `--max-row-size` besides its bytes (E5): about what a
    /// column costs to size and lay out, so that a line of millions of empty fields is bounded
    /// as a long one is.
    @inlinable package static var fieldCost: Int { 64 }

    /// Byte range of field `index` in `bytes`.
    package func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Field `index` as a `String` (made once, when it is needed).
    package func string(at index: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range(of: index)]), as: UTF8.self) }
    }

    /// All fields as strings.
    package var strings: [String] { (0..<count).map { string(at: $0) } }

    /// A record holding `fields`' bytes.
    package init(_ fields: Fields) {
        for k in 0..<fields.count { append(fields[k]) }
    }

    /// Appends a field.
    package mutating func append(_ field: String) {
        bytes.append(contentsOf: field.utf8)
        ends.append(bytes.count)
    }

    /// Appends a field from raw bytes.
    package mutating func append(_ field: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: field)
        ends.append(bytes.count)
    }

    /// Ends the field being built: everything appended to `bytes` since the last end.
    package mutating func endField() { ends.append(bytes.count) }

    /// Empties the record and makes its buffers its own, so a reader may append without checks
    /// (`appendAssumingUnique`, `endFieldAssumingUnique`) until the record is next copied.
    @inline(__always)
    mutating func clearForReading() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        bytes.prepareForAppending(64)
        ends.prepareForAppending(16)
    }

    @inline(__always)
    mutating func endFieldAssumingUnique() { ends.appendAssumingUnique(bytes.count) }

    /// Empties the record, keeping its capacity.
    package mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// A copy whose buffers are just large enough, for a row that is held (sorted, grouped, a
    /// pipe's window): it takes about half the memory of the reader's record, whose buffers are
    /// left to it for the next row.
    package func compacted() -> Record {
        Record(bytes: bytes.compacted(), ends: ends.compacted(), line: line)
    }

    private init(bytes: ByteArray, ends: GrowableArray<Int>, line: Int) {
        self.bytes = bytes
        self.ends = ends
        self.line = line
    }

    /// Calls `body` with the fields seen in place (the way every cell is read).
    @inline(__always)
    package func withFields<R, E: Error>(_ body: (Fields) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(self) { () throws(E) -> R in try body(unsafeFields) }
    }

    /// The fields in place, with nothing keeping the record alive: for a caller that owns the
    /// record for as long as it uses the view (a batch of the row pipeline).
    @inline(__always)
    package var unsafeFields: Fields { Fields(base: bytes.unsafeBase, ends: ends.unsafeBase, count: ends.count) }
}

/// A record's fields in place: where its bytes are and where each field ends. Two pointers and a
/// count, so the loops that read every cell (sizing, drawing) copy nothing and count no references.
/// Valid only while the record it came from is alive and unchanged.
///
/// Fields read in place from a file's bytes (`RowIndex`) also say where each starts, as they do
/// not follow one another.
@usableFromInline package struct Fields {
    @usableFromInline package let base: UnsafePointer<UInt8>
    @usableFromInline package let ends: UnsafePointer<Int>
    /// Number of fields.
    @usableFromInline package let count: Int
    /// Where each field starts; nil when each starts where the one before it ends (a `Record`).
    @usableFromInline package let starts: UnsafePointer<Int>?

    package init(base: UnsafePointer<UInt8>, ends: UnsafePointer<Int>, count: Int) {
        self.base = base
        self.ends = ends
        self.count = count
        starts = nil
    }

    @usableFromInline
    package init(base: UnsafePointer<UInt8>, starts: UnsafePointer<Int>, ends: UnsafePointer<Int>, count: Int) {
        self.base = base
        self.ends = ends
        self.count = count
        self.starts = starts
    }

    /// Field `index`'s bytes; an empty cell past the last field (a short row).
    @inlinable @inline(__always)
    package subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < count else { return UnsafeBufferPointer(start: base, count: 0) }
        let start = starts?[index] ?? (index == 0 ? 0 : ends[index &- 1])
        return UnsafeBufferPointer(start: base + start, count: ends[index] &- start)
    }
}

/// A row read in place in the stream's buffer (`CSVReader.readInPlace`): where each field starts
/// and ends there, with no copy of its bytes. Valid until the stream is read again.
@usableFromInline package struct InPlaceRow {
    /// Buffer indexes of each field's first byte and of the byte just past it, `capacity` of each.
    @usableFromInline package private(set) var starts: UnsafeMutablePointer<Int>
    @usableFromInline package private(set) var ends: UnsafeMutablePointer<Int>
    @usableFromInline package private(set) var capacity = 64
    /// Holds their memory.
    private var memory: (starts: GrowableArray<Int>.Storage, ends: GrowableArray<Int>.Storage)
    /// Fields as the reader found them, before the table pads a short row.
    @usableFromInline package var count = 0
    /// Fields held, padding included.
    @usableFromInline package private(set) var held = 0
    /// The line the row starts on (1-based).
    package var line = 0
    /// The quoted fields with `""` in them, to be decoded once the row is taken.
    var paired = GrowableArray<Int>()

    package init() {
        memory = (GrowableArray<Int>.Storage(capacity: capacity), GrowableArray<Int>.Storage(capacity: capacity))
        starts = memory.starts.pointer
        ends = memory.ends.pointer
    }

    /// Whether `starts` and `ends` are the caller's (`aim`), not `memory`.
    @usableFromInline var aimed = false

    /// Has the next row's fields written at `starts` and `ends`, room for `capacity` of each, which
    /// the caller lends until the next `aim` (a sizing batch's next row, so that the row needs no
    /// copy into it). A row of more fields moves to the row's own memory (`grow`).
    @inlinable @inline(__always)
    package mutating func aim(starts: UnsafeMutablePointer<Int>, ends: UnsafeMutablePointer<Int>, capacity: Int) {
        self.starts = starts
        self.ends = ends
        self.capacity = capacity
        aimed = true
    }

    /// Room for twice as many fields, those held kept (moved to the row's own memory when they
    /// were written where `aim` said). Out of line: the readers' field loops call it seldom.
    @inline(never)
    package mutating func grow() {
        let written = capacity
        capacity &*= 2
        if aimed {
            if memory.starts.capacity < capacity {
                memory.starts = memory.starts.grown(to: capacity)
                memory.ends = memory.ends.grown(to: capacity)
            }
            memory.starts.pointer.update(from: starts, count: written)
            memory.ends.pointer.update(from: ends, count: written)
            aimed = false
        } else {
            memory.starts = memory.starts.grown(to: capacity)
            memory.ends = memory.ends.grown(to: capacity)
        }
        starts = memory.starts.pointer
        ends = memory.ends.pointer
    }

    /// Holds `count` fields, written at `starts` and `ends` (with no `""` to decode so far).
    @inline(__always)
    package mutating func hold(_ count: Int) {
        self.count = count
        held = count
    }

    /// Pads the row with empty fields up to `columns` (a short row's cells are empty).
    package mutating func pad(to columns: Int) {
        while held < columns {
            if held == capacity { grow() }
            starts[held] = 0
            ends[held] = 0
            held &+= 1
        }
    }

    /// The fields in place in `buffer`, padding included.
    @inlinable @inline(__always)
    package func fields(in buffer: UnsafePointer<UInt8>) -> Fields {
        Fields(base: buffer, starts: starts, ends: ends, count: held)
    }

    /// The buffer the reader read the row in (`readInPlace` says it, so that a caller in another
    /// layer need not ask the stream for it, an access checked at run time, once a row).
    @usableFromInline package internal(set) var buffer: UnsafePointer<UInt8>? = nil

    /// The row's fields in the buffer it was read in. - Precondition: a row was read in place.
    @inlinable
    package func fields() -> Fields {
        guard let buffer else { preconditionFailure("the fields of a row not read in place") }
        return Fields(base: buffer, starts: starts, ends: ends, count: held)
    }
}
