// libFuzzer target: the view's open, edit and save path (V7, V10; issue #44), on files whose
// sizes sit at the edges of the buffers the code reads and hashes files in.
//
// Control bytes, then the input:
//   [0] bits 0–4 the file's size: one of `edges` (0, 1, 2, 4 KiB, 64 KiB, 128 KiB, 384 KiB, 1 MiB,
//       each −1, 0, +1), or for 18 and above the input's own length; bits 5–6 the kind (CSV, TSV,
//       JSON Lines, CSV), by the file's name
//   [1…] keys, one a byte, until a 0 byte or 24 keys: e, a typed character, Enter, Esc, J, K, +,
//       d, y, u, j, k, G, Tab, Ctrl-R (the byte modulo 15)
// The rest is the file's text, repeated (or cut) to the size chosen.
//
// Each input is written to a file, opened as the view opens it, the keys handled, then saved
// with `w`. Checks: no trap and no sanitizer finding (the fuzz binary is built with
// AddressSanitizer); with nothing unsaved, the save leaves every byte of the file as it was;
// a save said done leaves a file that opens again and reads to its end.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let edges: [Int] = [0, 1, 2, 4095, 4096, 4097, 65535, 65536, 65537, 131071, 131072, 131073,
                            393215, 393216, 393217, 1048575, 1048576, 1048577]
private let kinds = ["csv", "tsv", "jsonl", "csv"]
private let folder: String = {
    var template = Array("/tmp/tablefmt-fuzzsave-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { violated("cannot make a folder under /tmp") }
    return String(cString: made)
}()

private func key(_ b: UInt8) -> ViewKey {
    switch b % 15 {
    case 0: .character("e")
    case 1: .character(Character(Unicode.Scalar(UInt8(ascii: "a") + b % 26)))
    case 2: .enter
    case 3: .escape
    case 4: .character("J")
    case 5: .character("K")
    case 6: .character("+")
    case 7: .character("d")
    case 8: .character("y")
    case 9: .character("u")
    case 10: .character("j")
    case 11: .character("k")
    case 12: .character("G")
    case 13: .tab
    default: .control("r")
    }
}

/// The file's bytes: `text` repeated (a line of its own when empty) to `size` bytes.
private func fileBytes(_ text: [UInt8], size: Int) -> [UInt8] {
    let unit = text.isEmpty ? Array("a,b\n1,x\n".utf8) : text
    var out: [UInt8] = []
    out.reserveCapacity(size)
    while out.count < size { out.append(contentsOf: unit.prefix(size - out.count)) }
    return out
}

/// The file's bytes now, through the engine's own file reads (Sources/Support/FileIO.swift).
private func readBack(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let size = Int(lseek(fd, 0, SEEK_END))
    var out = [UInt8](repeating: 0, count: size)
    return size == 0 || readFully(fd, into: &out, count: size, at: 0) ? out : nil
}

private func write(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    require(fd >= 0, "cannot write \(path)")
    defer { close(fd) }
    require(writeFully(fd, from: bytes, count: bytes.count, at: 0) == 0, "cannot write \(path)")
}

/// Opens `path` as the view does, every row read. - Returns: the model, and whether it read to the end without an error.
private func opened(_ path: String) -> (ViewModel, Bool)? {
    guard let input = try? FileInput(path: path) else { return nil }
    let options = FormatOptions()
    let loader = ViewLoader(store: RowStore())
    loader.load(input, options: options)
    let model = ViewModel(loader: loader, options: options, source: input.name, color: false, width: 60, height: 12)
    model.enableSaving(input, options: options)
    _ = model.refresh()
    _ = model.frame()
    return (model, loader.progress.done && loader.progress.error == nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 1 else { return 0 }
    var control = ControlBytes(UnsafeBufferPointer(start: data, count: size))
    let choice = control.next()
    var keys: [ViewKey] = []
    while keys.count < 24 {
        let b = control.next()
        if b == 0 { break }
        keys.append(key(b))
    }
    let text = control.rest
    let length = Int(choice & 31) < edges.count ? edges[Int(choice & 31)] : text.count
    let path = "\(folder)/file.\(kinds[Int(choice >> 5 & 3)])"
    let bytes = fileBytes(text, size: length)
    write(bytes, to: path)
    defer { unlink(path) }
    guard let (model, _) = opened(path) else { return 0 }
    for key in keys {
        model.handle(key)
        _ = model.frame()
    }
    // Out of any editor or question, then save.
    model.handle(.escape)
    model.handle(.escape)
    let unsaved = model.unsaved
    model.handle(.character("w"))
    _ = model.frame()
    let message = model.state.message ?? ""
    if !unsaved {
        require(readBack(path) == bytes, "a save with nothing to save changed the file", "keys: \(keys), message: \(message)")
    } else if message.hasPrefix("saved to") {
        require(opened(path) != nil, "the saved file does not open", message)
    }
    return 0
}
