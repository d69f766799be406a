/// The code units of a followed file's encoding (I10), so that its lines are found, ended and
/// compared whole: a UTF-16 file (told by its byte order mark) is two bytes a unit, its line feed
/// `0A 00` or `00 0A`; anything else is a byte a unit. A new file after a truncation or rotation
/// is read in the first file's units, its own byte order mark dropped (the stream has had one).
struct FollowUnits {
    /// The line feed, one unit; its width is the unit's.
    package private(set) var lineFeed: [UInt8] = [0x0A]
    private(set) var carriageReturn: [UInt8] = [0x0D]
    package var width: Int { lineFeed.count }

    /// The units told from a stream's first bytes (at least two).
    package init(start: some Collection<UInt8>) {
        let mark = Array(start.prefix(2))
        if mark == [0xFF, 0xFE] {
            lineFeed = [0x0A, 0x00]
            carriageReturn = [0x0D, 0x00]
        } else if mark == [0xFE, 0xFF] {
            lineFeed = [0x00, 0x0A]
            carriageReturn = [0x00, 0x0D]
        }
    }

    package init() {}

    /// The byte order marks dropped at a new file's start: this encoding's, and UTF-8's.
    private var marks: [[UInt8]] {
        switch lineFeed {
        case [0x0A, 0x00]: [[0xFF, 0xFE]]
        case [0x00, 0x0A]: [[0xFE, 0xFF]]
        default: [[0xEF, 0xBB, 0xBF]]
        }
    }

    /// The length of the byte order mark `bytes` start with (0 if none); nil while too few bytes
    /// have come to tell.
    func markLength(_ bytes: [UInt8], ended: Bool) -> Int? {
        for mark in marks {
            if bytes.starts(with: mark) { return mark.count }
            if !ended && bytes.count < mark.count && mark.starts(with: bytes) { return nil }
        }
        return 0
    }

    /// Where the unit-aligned line feed at or after `from` ends (the index after it), nil if none.
    func firstLineEnd(in bytes: some RandomAccessCollection<UInt8>, from: Int = 0) -> Int? {
        var index = from
        while index + width <= bytes.count {
            if unit(bytes, at: index) == lineFeed { return index + width }
            index += width
        }
        return nil
    }

    /// Where the last unit-aligned line feed in `bytes` ends (the index after it), nil if none.
    func lastLineEnd(in bytes: some RandomAccessCollection<UInt8>) -> Int? {
        if width == 1 { return bytes.lastIndex(of: 0x0A).map { bytes.distance(from: bytes.startIndex, to: $0) + 1 } }
        var index = bytes.count - bytes.count % width - width
        while index >= 0 {
            if unit(bytes, at: index) == lineFeed { return index + width }
            index -= width
        }
        return nil
    }

    private func unit(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int) -> [UInt8] {
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        return Array(bytes[start..<bytes.index(start, offsetBy: width)])
    }
}
