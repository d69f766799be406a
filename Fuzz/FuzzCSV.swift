// libFuzzer target: the CSV/TSV reader over the input stream (I2, I3, I5, E5).
//
// Control bytes, then the input:
//   [0] dialect: bits 0–2 the delimiter (, TAB ; | space : # or the NUL byte), bit 3 quoting off,
//       bit 4 backslash escapes (TSV), bit 5 keep blank lines
//   [1] the chunk size the source hands out (1…200, 4 KiB, 64 KiB, 1 MiB; at least 1/128 of
//       the input)
//   [2] the encoding (low 3 bits: auto, utf-8, utf-16le, utf-16be, latin1, cp1252)
//
// Checks: no trap, no hang; every field is valid UTF-8; record lines never go backwards; the
// only error is a malformed-data error with a 1-based position, and only when the input holds a
// quote byte and quoting is on; and the outcome is the same whatever the chunk sizes (the reader
// resumes at every byte boundary).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let delimiters: [UInt8] = [UInt8(ascii: ","), 0x09, UInt8(ascii: ";"), UInt8(ascii: "|"), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "#"), 0x00]

private func parse(_ bytes: [UInt8], dialect: Dialect, encoding: TextEncoding?, sourceChunk: Int, streamChunk: Int) -> ReadOutcome {
    let stream = InputStream(MemorySource(bytes, chunkSize: sourceChunk), encoding: encoding, chunkSize: streamChunk)
    var reader = CSVReader(stream: stream, dialect: dialect, sourceName: "fuzz.csv")
    return readAll(&reader)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 3 else { return 0 }
    var control = ControlBytes(UnsafeBufferPointer(start: data, count: size))
    let d = control.next(), c = control.next(), e = control.next()
    let dialect = Dialect(delimiter: delimiters[Int(d & 7)], quoting: d & 8 == 0, backslashEscapes: d & 16 != 0, skipBlankLines: d & 32 == 0)
    let chosenEncoding = encoding(e)
    let input = control.rest

    let small = parse(input, dialect: dialect, encoding: chosenEncoding, sourceChunk: chunkSize(c, inputSize: input.count), streamChunk: 16)
    let whole = parse(input, dialect: dialect, encoding: chosenEncoding, sourceChunk: 1 << 20, streamChunk: 1 << 18)
    require(small == whole, "the outcome depends on the chunk size \(chunkSize(c, inputSize: input.count))",
            "chunked: \(small.summary)\nwhole:   \(whole.summary)")
    require(whole.records.count <= input.count + 1, "more records than bytes")
    if whole.error != nil {
        require(dialect.quoting && input.contains(0x22), "an error without a quote in the input: \(whole.error ?? "")")
        require(whole.error?.contains("unterminated quoted field") == true, "unexpected CSV error: \(whole.error ?? "")")
    }
    return 0
}
