// libFuzzer target: the JSON / JSON Lines reader (I4, I5, E5). Built only when
// Sources/Input/JSONReader*.swift compile (scripts/fuzz.sh checks).
//
// Control bytes, then the input:
//   [0] bits 0–1 the mode (auto, JSON Lines, one document, auto), bits 2–4 the nesting limit
//       (512, or 1…7 to reach the too-deep error often)
//   [1] the chunk size the source hands out (1…200, 4 KiB, 64 KiB, 1 MiB; at least 1/128 of the input)
//   [2] the encoding (low 3 bits: auto, utf-8, utf-16le, utf-16be, latin1, cp1252)
//
// Checks: no trap, no hang; every cell is valid UTF-8; record lines never go backwards; a record
// never has more fields than the columns known; the only error is malformed data with a 1-based
// position; an input with no value is an error unless in JSON Lines mode; and the outcome is the
// same whatever the chunk sizes.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads every row, also checking each record against the columns known when it came.
private func parse(_ bytes: [UInt8], linesMode: Bool?, maxDepth: Int, encoding: TextEncoding?, sourceChunk: Int, streamChunk: Int) -> ReadOutcome {
    let stream = InputStream(MemorySource(bytes, chunkSize: sourceChunk), encoding: encoding, chunkSize: streamChunk)
    var reader = ColumnCheckingReader(inner: JSONReader(stream: stream, linesMode: linesMode, sourceName: "fuzz.json", maxDepth: maxDepth))
    return readAll(&reader)
}

/// Checks each record's width against the reader's columns at the time.
private struct ColumnCheckingReader: RecordReader {
    var inner: JSONReader
    var columnNames: [String]? { inner.columnNames }
    var warnings: [String] { inner.warnings }
    mutating func read(into record: inout Record) throws(InputError) -> Bool {
        guard try inner.read(into: &record) else { return false }
        let known = inner.columnNames?.count ?? 0
        require(record.count <= known, "a JSON record has \(record.count) fields but \(known) columns are known")
        return true
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 3 else { return 0 }
    var control = ControlBytes(UnsafeBufferPointer(start: data, count: size))
    let m = control.next(), c = control.next(), e = control.next()
    let linesMode: Bool? = [nil, true, false, nil][Int(m & 3)]
    let depthBits = Int(m >> 2 & 7)
    let maxDepth = depthBits == 0 ? 512 : depthBits
    let chosenEncoding = encoding(e)
    let input = control.rest

    let small = parse(input, linesMode: linesMode, maxDepth: maxDepth, encoding: chosenEncoding, sourceChunk: chunkSize(c, inputSize: input.count), streamChunk: 16)
    let whole = parse(input, linesMode: linesMode, maxDepth: maxDepth, encoding: chosenEncoding, sourceChunk: 1 << 20, streamChunk: 1 << 18)
    require(small == whole, "the outcome depends on the chunk size \(chunkSize(c, inputSize: input.count))",
            "chunked: \(small.summary)\nwhole:   \(whole.summary)")
    let blank = input.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    if blank && chosenEncoding == nil && linesMode != true {
        require(whole.error != nil, "an input holding no JSON value was accepted")
    }
    if let error = whole.error {
        require(whole.records.count <= input.count, "more rows than bytes before an error: \(error)")
    }
    return 0
}
