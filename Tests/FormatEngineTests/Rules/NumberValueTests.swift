import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W11: `--sort` and the view order numbers by the value `NumberValue.of` reads, which for most
/// cells is read from the bytes without making text (a fast path). Checked against Swift's own
/// `Double(String)` (correctly rounded) of the number's exact value, on generated numbers in
/// every form the reader accepts, and on digit strings long and short around the fast path's
/// limits (15 significant digits, 22 decimals).
@Suite("W11 number values")
struct NumberValueTests {
    static func value(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { NumberValue.of($0) }
    }

    @Test("every number form reads as Double(String) reads its exact value")
    func formsReadAsTheirValue() {
        var random = SplitMix64(seed: 0x5EED_0011)
        for k in 0..<60_000 {
            let number = GroupSumTests.number(&random, family: k % 6)
            let expected = Double("\(number.value)")
            #expect(Self.value(number.text) == expected, "\(number.text)")
        }
    }

    @Test("digit strings around the fast path's limits read as Double(String) reads them")
    func digitStringsAroundTheLimits() {
        var random = SplitMix64(seed: 0x5EED_0012)
        for _ in 0..<60_000 {
            let length = 1 + random.below(24)
            var digits = (0..<length).map { _ in Character(String(random.below(10))) }
            let point = random.below(length + 1)
            let pointed = point < length && random.below(3) > 0
            if digits[0] == "0" && length > 1 && !(pointed && point == 1) { digits[0] = "1" }
            var text = String(digits)
            if pointed {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
                if point == 0 { text = "0" + text }
            }
            // Leading zeros after the point: 0.000123.
            if pointed && point == 0 && random.below(2) == 0 { text = "0." + String(repeating: "0", count: random.below(12)) + text.dropFirst(2) }
            text = (random.below(3) == 0 ? "-" : "") + text
            let got = Self.value(text)
            #expect(got == Double(text), "\(text)")
            if let got, got == 0 { #expect(got.sign == Double(text)?.sign, "the sign of zero: \(text)") }
        }
    }
}
