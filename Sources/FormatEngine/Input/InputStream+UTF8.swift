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
        var i = end
        let limit = filled
        let storage = storage  // a local: the loop reads no class property
        while i < limit {
            // Fast path: sixteen ASCII bytes at a time, then eight, again after every multibyte
            // sequence, and straight to the first byte of a word that is not ASCII.
            while i &+ 16 <= limit {
                let raw = UnsafeRawPointer(storage + i)
                if (raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & SWAR.highBits != 0 { break }
                i &+= 16
            }
            while i &+ 8 <= limit {
                let high = UnsafeRawPointer(storage + i).loadUnaligned(as: UInt64.self) & SWAR.highBits
                if high != 0 {
                    i &+= high.trailingZeroBitCount >> 3
                    break
                }
                i &+= 8
            }
            if i >= limit { break }
            if storage[i] < 0x80 {  // fewer than eight bytes left
                i &+= 1
                continue
            }
            // A run of sequences (a word of Latin, Greek, CJK, Hangul …), taken while it lasts.
            repeat {
                let lead = storage[i]
                // The common two- and three-byte sequences without the general check: a lead of
                // C2–DF, or of E1–EC or EE–EF (whose second byte may be any of 80–BF), and
                // continuation bytes; E0, ED, four bytes and anything wrong by `UTF8Check`.
                if lead &- 0xC2 <= 0xDF - 0xC2 {
                    if i &+ 1 < limit, storage[i &+ 1] & 0xC0 == 0x80 {
                        i &+= 2
                        continue
                    }
                } else if lead &- 0xE1 <= 0xEF - 0xE1, lead != 0xED, i &+ 2 < limit,
                          storage[i &+ 1] & 0xC0 == 0x80, storage[i &+ 2] & 0xC0 == 0x80 {
                    i &+= 3
                    continue
                }
                switch UTF8Check.sequence(storage, i, limit) {
                case .valid(let length):
                    i &+= length
                case .incomplete:
                    if final {
                        repair(at: i)
                        return
                    }
                    end = i
                    return
                case .invalid:
                    repair(at: i)
                    return
                }
            } while i < limit && storage[i] >= 0x80
        }
        end = i
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
