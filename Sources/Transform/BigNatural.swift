import Input
import Profile
import Support
import Text
/// A natural number in base 10⁹ limbs, least significant first: just enough for exact sums.
package struct BigNatural: Comparable {
    package static let base: UInt64 = 1_000_000_000
    package var limbs: [UInt64] = []

    package init() {}

    /// `digits` (most significant first) followed by `zeros` zeros.
    package init(digits: some Collection<UInt8>, zeros: Int) {
        let all = Array(digits) + [UInt8](repeating: 0, count: zeros)
        var end = all.count
        while end > 0 {
            let start = max(0, end - 9)
            var limb: UInt64 = 0
            for k in start..<end { limb = limb * 10 + UInt64(all[k]) }
            limbs.append(limb)
            end = start
        }
        trim()
    }

    package mutating func trim() { while limbs.last == 0 { limbs.removeLast() } }

    /// Adds a number below `base²`, without making a `BigNatural` of it.
    package mutating func add(small value: UInt64) {
        var carry = value
        var k = 0
        while carry > 0 {
            if k == limbs.count { limbs.append(0) }
            let sum = limbs[k] + carry % Self.base
            limbs[k] = sum % Self.base
            carry = carry / Self.base + sum / Self.base
            k += 1
        }
    }

    /// Multiplies by `10^power` (`power` ≥ 0).
    package mutating func multiply(byPowerOfTen power: Int) {
        var left = power
        while left > 0 && !limbs.isEmpty {
            let step = min(left, 9)
            var factor: UInt64 = 1
            for _ in 0..<step { factor *= 10 }
            var carry: UInt64 = 0
            for k in limbs.indices {
                let product = limbs[k] * factor + carry
                limbs[k] = product % Self.base
                carry = product / Self.base
            }
            if carry > 0 { limbs.append(carry) }
            left -= step
        }
    }

    package mutating func add(_ other: BigNatural) {
        if limbs.count < other.limbs.count { limbs += [UInt64](repeating: 0, count: other.limbs.count - limbs.count) }
        var carry: UInt64 = 0
        for k in limbs.indices {
            let sum = limbs[k] + (k < other.limbs.count ? other.limbs[k] : 0) + carry
            limbs[k] = sum % Self.base
            carry = sum / Self.base
            if carry == 0 && k >= other.limbs.count { break }
        }
        if carry > 0 { limbs.append(carry) }
    }

    /// `self - other`; `other` must not be larger.
    package func subtracting(_ other: BigNatural) -> BigNatural {
        var out = self
        var borrow: UInt64 = 0
        for k in out.limbs.indices {
            let take = (k < other.limbs.count ? other.limbs[k] : 0) + borrow
            if out.limbs[k] >= take {
                out.limbs[k] -= take
                borrow = 0
            } else {
                out.limbs[k] = out.limbs[k] + Self.base - take
                borrow = 1
            }
        }
        out.trim()
        return out
    }

    package static func < (a: BigNatural, b: BigNatural) -> Bool {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for k in a.limbs.indices.reversed() where a.limbs[k] != b.limbs[k] { return a.limbs[k] < b.limbs[k] }
        return false
    }

    /// Decimal digits, most significant first, no leading zeros (empty for zero).
    package var decimalDigits: [UInt8] {
        guard let last = limbs.last else { return [] }
        var out = String(last).utf8.map { $0 - 0x30 }
        for limb in limbs.dropLast().reversed() {
            let chunk = String(limb).utf8.map { $0 - 0x30 }
            out += [UInt8](repeating: 0, count: 9 - chunk.count) + chunk
        }
        return out
    }
}
