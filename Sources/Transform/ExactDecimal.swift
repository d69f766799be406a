import Input
import Profile
import Support
import Text
/// A number-like cell's exact value: `digits × 10^exponent`, negative or not (W12 sums).
package struct ExactDecimal: Sendable, Equatable {
    package var negative: Bool
    /// Decimal digits, most significant first, without leading zeros (empty for zero).
    package var digits: [UInt8]
    package var exponent: Int

    /// The most digits an exact sum may span, from the largest addend's first digit to the
    /// smallest's last (a footer of more would not be read, only scrolled past).
    package static let limit = 100

    /// Reads a cell through `NumberShape` (sign, currency, grouping, decimal comma, exponent, unit).
    package init?(_ cell: UnsafeBufferPointer<UInt8>) {
        guard let shape = NumberShape.parse(cell), shape.kind != .percent else { return nil }
        var digits: [UInt8] = []
        let read = Self.walk(cell, shape) { digits.append($0) }
        self.negative = read.negative && !digits.isEmpty
        self.digits = digits
        self.exponent = read.exponent
    }

    /// The significant digits of a number-like cell of `shape`, most significant first, handed to
    /// `digit` (leading zeros skipped; `+` and grouping commas add nothing).
    /// - Returns: whether a `-` was met, and the exponent of the last digit.
    @inline(__always)
    package static func walk(_ cell: UnsafeBufferPointer<UInt8>, _ shape: NumberShape, digit: (UInt8) -> Void) -> (negative: Bool, exponent: Int) {
        var negative = false
        if let sign = shape.detachedSign, cell[sign] == UInt8(ascii: "-") { negative = true }
        var any = false
        var fraction = 0
        var afterPoint = false
        var exponent = 0
        var i = shape.number.lowerBound
        let end = shape.number.upperBound
        while i < end {
            let b = cell[i]
            if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                // The exponent: a sign, then digits (NumberShape checked there is at least one).
                var k = i + 1
                var exponentNegative = false
                if k < end && (cell[k] == UInt8(ascii: "-") || cell[k] == UInt8(ascii: "+")) { exponentNegative = cell[k] == UInt8(ascii: "-"); k += 1 }
                var value = 0
                while k < end {
                    value = min(value * 10 + Int(cell[k] &- 0x30), 1_000_000_000)  // far past any limit
                    k += 1
                }
                exponent = exponentNegative ? -value : value
                break
            }
            if i - shape.number.lowerBound == shape.point && (b == UInt8(ascii: ".") || b == UInt8(ascii: ",")) {
                afterPoint = true
            } else if b == UInt8(ascii: "-") {
                negative.toggle()
            } else if b &- 0x30 <= 9 {
                if any || b != UInt8(ascii: "0") {
                    any = true
                    digit(b &- 0x30)
                }
                if afterPoint { fraction += 1 }
            }
            i += 1
        }
        return (negative, exponent - fraction)
    }

    package init(negative: Bool, digits: [UInt8], exponent: Int) {
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    /// The sum, at the smallest exponent among the terms (so as many decimals as the most precise
    /// addend), and whether it is exact. When the terms span more than `limit` digits, digits
    /// below the top `limit` are dropped from each term first (the result is then not exact).
    package static func sum(_ terms: [ExactDecimal]) -> (ExactDecimal, exact: Bool) {
        var span = Span()
        for term in terms { span.add(term) }
        var total = Total(scale: span.scale)
        for term in terms { total.add(term) }
        return (total.value, span.exact)
    }

    /// Where a sum's addends lie, gathered one addend at a time: the smallest exponent, and the
    /// top (the largest addend's first digit). The sum keeps every digit when they span at most
    /// `limit` digits; otherwise the digits below `top - limit` are dropped from each addend.
    package struct Span {
        private var smallest: Int?
        private var largest: Int?

        package init() {}

        package mutating func add(_ term: ExactDecimal) { add(exponent: term.exponent, digits: term.digits.count) }

        /// Takes an addend of `digits` significant digits, the last at `exponent`.
        package mutating func add(exponent: Int, digits: Int) {
            smallest = min(smallest ?? exponent, exponent)
            if digits > 0 { largest = max(largest ?? exponent + digits, exponent + digits) }
        }

        /// Where another sum's addends lie, taken in (the span of both).
        package mutating func merge(_ other: Span) {
            if let s = other.smallest { smallest = min(smallest ?? s, s) }
            if let l = other.largest { largest = max(largest ?? l, l) }
        }

        private var top: Int { max(largest ?? Int.min, smallest ?? 0) }
        /// Whether the sum is exact.
        package var exact: Bool { top - (smallest ?? 0) <= limit }
        /// The exponent of the sum's last digit.
        package var scale: Int { exact ? smallest ?? 0 : top - limit }
    }

    /// A sum at a given scale, one addend at a time.
    package struct Total {
        package let scale: Int
        private var positive = BigNatural(), negative = BigNatural()

        package init(scale: Int) { self.scale = scale }

        package mutating func add(_ term: ExactDecimal) {
            guard !term.digits.isEmpty else { return }
            // Digits below `scale` (only when not exact) are dropped: the term is cut toward zero.
            let kept = term.digits.count - max(0, scale - term.exponent)
            guard kept > 0 else { return }
            let aligned = BigNatural(digits: term.digits.prefix(kept), zeros: max(0, term.exponent - scale))
            if term.negative { negative.add(aligned) } else { positive.add(aligned) }
        }

        package var value: ExactDecimal {
            let isNegative = positive < negative
            let magnitude = isNegative ? negative.subtracting(positive) : positive.subtracting(negative)
            return ExactDecimal(negative: isNegative, digits: magnitude.decimalDigits, exponent: scale)
        }
    }

    /// Rounded half away from zero to `count` significant digits, trailing zeros dropped.
    package func rounded(toSignificant count: Int) -> ExactDecimal {
        guard digits.count > count else { return self }
        var kept = Array(digits.prefix(count))
        var exponent = self.exponent + digits.count - count
        if digits[count] >= 5 {
            var k = kept.count - 1
            while k >= 0 && kept[k] == 9 { kept[k] = 0; k -= 1 }
            if k >= 0 { kept[k] += 1 } else { kept.insert(1, at: 0); kept.removeLast(); exponent += 1 }
        }
        while kept.last == 0 { kept.removeLast(); exponent += 1 }
        return ExactDecimal(negative: negative, digits: kept, exponent: exponent)
    }

    /// The value as a reader writes it: plain decimal notation with `-exponent` decimals when that
    /// takes at most 40 characters, else `d.ddde+N` with every significant digit (still exact).
    package var text: String {
        let scale = max(0, -exponent)
        var digits = self.digits.map { $0 + 0x30 }
        if digits.isEmpty { digits = [0x30] }
        let plainLength = max(digits.count + max(0, exponent), scale + 1) + (scale > 0 ? 1 : 0)
        if plainLength <= 40 {
            var text = digits + [UInt8](repeating: 0x30, count: max(0, exponent))
            if scale > 0 {
                if text.count <= scale { text = [UInt8](repeating: 0x30, count: scale - text.count + 1) + text }
                text.insert(UInt8(ascii: "."), at: text.count - scale)
            }
            return (negative ? "-" : "") + String(decoding: text, as: UTF8.self)
        }
        var significant = digits
        while significant.count > 1 && significant.last == 0x30 { significant.removeLast() }
        let power = exponent + digits.count - 1
        var text = String(decoding: significant.prefix(1), as: UTF8.self)
        if significant.count > 1 { text += "." + String(decoding: significant.dropFirst(), as: UTF8.self) }
        return (negative ? "-" : "") + text + "e" + (power < 0 ? "-" : "+") + String(power.magnitude)
    }
}

extension ExactDecimal {
    /// A column's sum gathered one cell at a time, in one pass (W12 groups sized in pieces): kept
    /// exact at the smallest exponent met so far (earlier addends scaled up when a smaller one
    /// comes), so it needs no second look at the cells when the addends span at most `limit`
    /// digits. Past that the sum keeps per-addend cuts `Total` makes, which need the final span
    /// first: `exact` is then false and the caller adds the cells again at `span.scale`.
    package struct Running {
        /// A cell that is not a number (or is a percentage) was met: there is no sum.
        package private(set) var notNumbers = false
        package private(set) var span = Span()
        /// The exponent of the sum's last digit: the smallest addend's (nil: no addend yet).
        private var scale: Int?
        /// The sum: `positive - negative`, each the big part plus the small one (below 10^18,
        /// carried into the big part before it would pass that).
        private var positive = BigNatural(), negative = BigNatural()

        package init() {}
        private var smallPositive: UInt64 = 0, smallNegative: UInt64 = 0
        private static let smallLimit: UInt64 = 1_000_000_000_000_000_000

        /// Takes a cell: empty cells and placeholders add nothing, text ends the sum. (Inlined: a
        /// column whose sum has ended, such as text, costs its caller a test and no call.)
        @inline(__always)
        package mutating func add(_ cell: UnsafeBufferPointer<UInt8>) {
            if !notNumbers { addNumber(cell) }
        }

        private mutating func addNumber(_ cell: UnsafeBufferPointer<UInt8>) {
            if let base = cell.baseAddress, let length = NumberShape.shortWholeNumber(cell) {
                // `7`, `1024`: the commonest number cell, read as a word.
                let value = NumberShape.digitsValue(TextBytes.upTo8(base, at: 0, count: length), count: length)
                add(value, digits: value == 0 ? 0 : length, exponent: 0, negative: false)
                return
            }
            if let base = cell.baseAddress, let point = NumberShape.shortDecimal(cell) {
                // `373.55`, `.125`: the digits on both sides of the point, read as one word with
                // the point taken out. Its significant digits are those after its leading zeros (as
                // `walk` reads them); the last digit's exponent is minus the digits after the point.
                let word = TextBytes.upTo8(base, at: 0, count: cell.count)
                let below: UInt64 = point == 0 ? 0 : (1 << UInt64(8 &* point)) &- 1
                let digits = word & below | (word >> UInt64(8 &* (point &+ 1))) << UInt64(8 &* point)
                let count = cell.count &- 1  // two to seven digits
                // Each digit's value, a byte each; leading zeros are the lowest bytes that are 0.
                let values = (digits ^ SWAR.ones &* 0x30) & ((1 << UInt64(8 &* count)) &- 1)
                let significant = values == 0 ? 0 : count &- values.trailingZeroBitCount >> 3
                add(NumberShape.digitsValue(digits, count: count), digits: significant, exponent: point &+ 1 &- cell.count, negative: false)
                return
            }
            guard !cell.isEmpty, !CellKind.isNullWord(cell) else { return }
            guard let shape = NumberShape.parse(cell), shape.kind != .percent else {
                notNumbers = true
                positive = BigNatural()
                negative = BigNatural()
                return
            }
            var value: UInt64 = 0
            var count = 0
            let read = ExactDecimal.walk(cell, shape) { digit in
                if count < 18 { value = value &* 10 &+ UInt64(digit) }
                count += 1
            }
            if count > 18 || count + read.exponent - min(scale ?? read.exponent, read.exponent) > 18 {
                // Too long for a word: as a `BigNatural` (a rare cell, read again whole).
                span.add(exponent: read.exponent, digits: count)
                rescale(to: read.exponent)
                guard let term = ExactDecimal(cell), let scale else { return }
                let aligned = BigNatural(digits: term.digits, zeros: read.exponent - scale)
                if read.negative { negative.add(aligned) } else { positive.add(aligned) }
                return
            }
            add(value, digits: count, exponent: read.exponent, negative: read.negative)
        }

        /// Takes an addend of at most 18 digits: `value × 10^exponent`, whose `value` has
        /// `digits` significant digits.
        @inline(__always)
        private mutating func add(_ value: UInt64, digits: Int, exponent: Int, negative isNegative: Bool) {
            span.add(exponent: exponent, digits: digits)
            rescale(to: exponent)
            guard digits > 0, let scale else { return }
            let zeros = exponent - scale
            guard digits + zeros <= 18 else {
                let aligned = BigNatural(digits: String(value).utf8.map { $0 - 0x30 }, zeros: zeros)
                if isNegative { negative.add(aligned) } else { positive.add(aligned) }
                return
            }
            var value = value
            for _ in 0..<zeros { value &*= 10 }
            if isNegative {
                Self.addSmall(&smallNegative, &negative, value)
            } else {
                Self.addSmall(&smallPositive, &positive, value)
            }
        }

        private static func addSmall(_ small: inout UInt64, _ big: inout BigNatural, _ value: UInt64) {
            small &+= value
            if small >= Self.smallLimit {
                big.add(small: small)
                small = 0
            }
        }

        /// Another part of the same column's cells (a later piece of the file), taken in.
        package mutating func merge(_ other: Running) {
            guard !notNumbers else { return }
            if other.notNumbers {
                self = other
                return
            }
            guard let otherScale = other.scale else { return }
            span.merge(other.span)
            rescale(to: otherScale)
            var more = other
            more.rescale(to: scale ?? otherScale)
            more.foldSmall()
            foldSmall()
            positive.add(more.positive)
            negative.add(more.negative)
        }

        /// The small parts carried into the big ones.
        private mutating func foldSmall() {
            positive.add(small: smallPositive)
            negative.add(small: smallNegative)
            smallPositive = 0
            smallNegative = 0
        }

        /// The sum's last digit moved down to `exponent`, if it is lower.
        private mutating func rescale(to exponent: Int) {
            guard let current = scale else {
                scale = exponent
                return
            }
            guard exponent < current else { return }
            foldSmall()
            positive.multiply(byPowerOfTen: current - exponent)
            negative.multiply(byPowerOfTen: current - exponent)
            scale = exponent
        }

        /// The sum, when there is one and its addends span at most `limit` digits (the value
        /// `ExactDecimal.sum` gives for the same cells); nil otherwise.
        package var exactValue: ExactDecimal? {
            guard !notNumbers, let scale, span.exact else { return nil }
            var positive = positive, negative = negative
            positive.add(small: smallPositive)
            negative.add(small: smallNegative)
            let isNegative = positive < negative
            let magnitude = isNegative ? negative.subtracting(positive) : positive.subtracting(negative)
            return ExactDecimal(negative: isNegative, digits: magnitude.decimalDigits, exponent: scale)
        }

        /// Whether there is a sum to show: at least one number and no text.
        package var hasSum: Bool { !notNumbers && scale != nil }
    }
}
