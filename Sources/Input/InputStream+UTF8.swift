/// UTF-8 validation of the stream's bytes as they are read in: invalid sequences become U+FFFD
/// (I5), counted where the first one was.
extension InputStream {
    /// Validates `storage[end..<filled]`, advancing `end`. An incomplete sequence at the end is left
    /// for the next read unless `final`. Invalid sequences are replaced by U+FFFD.
    func validate(final: Bool) {
        if trustValidUTF8 {
            end = filled
            return
        }
        let i = UTF8Check.validEnd(storage, from: end, to: filled)
        guard i < filled else {
            end = filled
            return
        }
        if case .incomplete = UTF8Check.sequence(storage, i, filled), !final {
            end = i  // the rest of the sequence may come with the next read
            return
        }
        repair(at: i)
    }

    /// Rewrites `storage[at..<filled]` with every invalid sequence replaced by U+FFFD.
    private func repair(at first: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(filled - first + 16)
        var i = first
        var pendingFrom = filled
        scan: while i < filled {
            let b = storage[i]
            if b < 0x80 { out.append(b); i += 1; continue }
            switch UTF8Check.sequence(storage, i, filled) {
            case .valid(let length):
                out.append(contentsOf: UnsafeBufferPointer(start: storage + i, count: length))
                i += length
            case .incomplete(let validPrefix):
                if !sourceEnded {  // the rest of the sequence may come with the next read
                    pendingFrom = i
                    break scan
                }
                noteReplacement(at: first + out.count)
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                i += max(1, validPrefix)
            case .invalid(let validPrefix):
                noteReplacement(at: first + out.count)
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                i += max(1, validPrefix)
            }
        }
        let tail = Array(UnsafeBufferPointer(start: storage + pendingFrom, count: filled - pendingFrom))
        filled = first
        reserve(out.count + tail.count)
        for (k, byte) in out.enumerated() { storage[first + k] = byte }
        filled = first + out.count
        end = filled
        for byte in tail { storage[filled] = byte; filled += 1 }
    }
}
