/// UTF-16, Latin-1 and cp1252 turned into UTF-8 as they are read in (I5).
extension InputStream {
    func transcodeMore() throws(InputError) {
        if !sourceEnded {
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
            defer { chunk.deallocate() }
            let n = try readSource(into: chunk)
            if n == 0 { sourceEnded = true } else { raw.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n])) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count * 3 / 2 + 8)
        var used = 0
        switch encoding {
        case .utf8:
            return
        case .latin1, .cp1252:
            for b in raw { appendScalar(encoding == .cp1252 ? Self.cp1252(b) : UInt32(b), to: &out) }
            used = raw.count
        case .utf16le, .utf16be:
            let little = encoding == .utf16le
            var i = 0
            func unit(_ k: Int) -> UInt32 {
                little ? UInt32(raw[k]) | UInt32(raw[k + 1]) << 8 : UInt32(raw[k]) << 8 | UInt32(raw[k + 1])
            }
            while i + 1 < raw.count {
                let u = unit(i)
                if u >= 0xD800 && u < 0xDC00 {
                    if i + 3 < raw.count {
                        let low = unit(i + 2)
                        if low >= 0xDC00 && low < 0xE000 {
                            appendScalar(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00), to: &out)
                            i += 4
                            continue
                        }
                    } else if !sourceEnded {
                        break  // wait for the low surrogate
                    }
                    noteReplacement(at: filled + out.count)
                    appendScalar(0xFFFD, to: &out)
                    i += 2
                } else if u >= 0xDC00 && u < 0xE000 {
                    noteReplacement(at: filled + out.count)
                    appendScalar(0xFFFD, to: &out)
                    i += 2
                } else {
                    appendScalar(u, to: &out)
                    i += 2
                }
            }
            if sourceEnded && i < raw.count {  // an odd byte at the end
                noteReplacement(at: filled + out.count)
                appendScalar(0xFFFD, to: &out)
                i = raw.count
            }
            used = i
        }
        raw.removeFirst(used)
        reserve(out.count)
        out.withUnsafeBufferPointer { buffer in
            if let address = buffer.baseAddress { (storage + filled).update(from: address, count: buffer.count) }
        }
        filled += out.count
        end = filled
    }

    private func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
        switch value {
        case ..<0x80:
            out.append(UInt8(value))
        case ..<0x800:
            out.append(UInt8(0xC0 | value >> 6)); out.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | value >> 12)); out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        default:
            out.append(UInt8(0xF0 | value >> 18)); out.append(UInt8(0x80 | value >> 12 & 0x3F))
            out.append(UInt8(0x80 | value >> 6 & 0x3F)); out.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
