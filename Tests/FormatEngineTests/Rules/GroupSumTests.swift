import Foundation
import Testing
@testable import FormatEngine
@testable import Run
@testable import Viewer

/// W12: a group's footer adds the parsed values exactly, in every number form the reader accepts,
/// checked against Foundation's `Decimal` (an independent decimal arithmetic) on generated numbers.
@Suite("W12 group sums")
struct GroupSumTests {
    /// A generated number: its exact value, how it is written, and its decimals as written.
    struct Written {
        var value: Decimal
        var text: String
        var decimals: Int
    }

    /// A number as one of the forms `NumberShape` reads, with its exact value. `family` keeps a
    /// column's cells of one kind (a unit shared, or none), as real columns are.
    static func number(_ random: inout SplitMix64, family: Int) -> Written {
        let mantissa = Int64(random.below(1_000_000)) * Int64(1 + random.below(1_000_000))  // up to 12 digits
        let negative = random.below(3) == 0
        let magnitude = Decimal(mantissa)
        func digits(_ n: Int64) -> String { String(n) }
        /// `n` with `decimals` of its digits after the separator (`1234`, 2 → `12.34`; 5, 2 → `0.05`).
        func pointed(_ n: Int64, decimals: Int, separator: Character) -> String {
            var text = digits(n)
            guard decimals > 0 else { return text }
            if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
            text.insert(separator, at: text.index(text.endIndex, offsetBy: -decimals))
            return text
        }
        switch family {
        case 0:  // plain integers and decimals: 12, -3.25, +7
            let decimals = random.below(5)
            let value = magnitude / pow(Decimal(10), decimals)
            let text = pointed(mantissa, decimals: decimals, separator: ".")
            let sign = negative ? "-" : (random.below(6) == 0 ? "+" : "")
            return Written(value: negative ? -value : value, text: sign + text, decimals: decimals)
        case 1:  // exponents: 1.25e3, 4E-5, -7e+2
            let exponent = random.below(17) - 8
            let mantissaDigits = digits(mantissa)
            let fraction = random.below(min(4, mantissaDigits.count))
            var text = mantissaDigits
            if fraction > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -fraction)) }
            let e = random.below(2) == 0 ? "e" : "E"
            let expText = exponent < 0 ? "-\(-exponent)" : (random.below(3) == 0 ? "+\(exponent)" : "\(exponent)")
            let value = magnitude * pow(Decimal(10), max(0, exponent - fraction)) / pow(Decimal(10), max(0, fraction - exponent))
            return Written(value: negative ? -value : value, text: (negative ? "-" : "") + text + e + expText, decimals: max(0, fraction - exponent))
        case 2:  // grouped thousands with a point: 1,234,567.50
            let decimals = random.below(3)
            let whole = mantissa / 1000
            var grouped = ""
            for (k, c) in String(whole).reversed().enumerated() {
                if k > 0 && k % 3 == 0 { grouped.append(",") }
                grouped.append(c)
            }
            let fraction = String(String(mantissa % 1000 + 1000).dropFirst())  // three digits
            let shown = decimals == 0 ? "" : "." + fraction.prefix(decimals)
            let exact = Decimal(whole) + (decimals == 0 ? 0 : Decimal(Int(fraction.prefix(decimals)) ?? 0) / pow(Decimal(10), decimals))
            return Written(value: negative ? -exact : exact, text: (negative ? "-" : "") + String(grouped.reversed()) + shown, decimals: decimals)
        case 3:  // a decimal comma: 12,5 or 3,25 (never three decimals, which would be a group)
            let decimals = [1, 2, 4][random.below(3)]
            let text = pointed(mantissa, decimals: decimals, separator: ",")
            let value = magnitude / pow(Decimal(10), decimals)
            return Written(value: negative ? -value : value, text: (negative ? "-" : "") + text, decimals: decimals)
        case 4:  // currency before: $12.50, -$5, $-5
            let decimals = random.below(3)
            let text = pointed(mantissa, decimals: decimals, separator: ".")
            let value = magnitude / pow(Decimal(10), decimals)
            let written = negative ? (random.below(2) == 0 ? "-$" + text : "$-" + text) : "$" + text
            return Written(value: negative ? -value : value, text: written, decimals: decimals)
        default:  // a unit after: 12 kg, -3.5 kg
            let decimals = random.below(3)
            let text = pointed(mantissa, decimals: decimals, separator: ".")
            let value = magnitude / pow(Decimal(10), decimals)
            return Written(value: negative ? -value : value, text: (negative ? "-" : "") + text + " kg", decimals: decimals)
        }
    }

    static func decimalsShown(_ text: String) -> Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: text.index(after: point), to: text.endIndex)
    }

    @Test("W12: 3,000 generated groups in six number forms sum to Decimal's sum, with the most precise addend's decimals")
    func sumsMatchDecimal() throws {
        var random = SplitMix64(seed: 0x5EED_5A35)
        for round in 0..<3000 {
            let family = random.below(6)
            let count = 1 + random.below(60)
            let numbers = (0..<count).map { _ in Self.number(&random, family: family) }
            var expected = Decimal(0)
            for n in numbers { expected += n.value }
            guard let sum = NumberValue.sum(numbers.map { Array($0.text.utf8) }) else {
                Issue.record("round \(round): no sum for \(numbers.map(\.text))")
                continue
            }
            #expect(sum.exact, "round \(round)")
            #expect(Decimal(string: sum.text, locale: Locale(identifier: "en_US_POSIX")) == expected,
                    "round \(round): \(numbers.map(\.text)) gave \(sum.text), Decimal says \(expected)")
            #expect(Self.decimalsShown(sum.text) == numbers.map(\.decimals).max(), "round \(round): \(numbers.map(\.text)) gave \(sum.text)")
        }
    }

    @Test("W12: the sums from the report: exponents, 30-digit integers, placeholders")
    func reported() {
        func total(_ cells: [String]) -> String? { NumberValue.sum(cells.map { Array($0.utf8) })?.text }
        #expect(total(["1e3", "1e3"]) == "2000")
        #expect(total(["1E2", "1"]) == "101")
        #expect(total(["1e-3", "1e-3"]) == "0.002")
        #expect(total(["123456789012345678901234567890", "1"]) == "123456789012345678901234567891")
        #expect(total(["-123456789012345678901234567890", "123456789012345678901234567890"]) == "0")
        #expect(total(["1.50", "2"]) == "3.50")
        #expect(total(["1e300", "1e300"]) == "2e+300")
        #expect(total(["12", "NA", "", "-", "null", "3"]) == "15")
        #expect(total(["NA", ""]) == nil)
        #expect(total(["12", "twelve"]) == nil)
        #expect(total(["12%", "3%"]) == nil)
    }

    @Test("W12: a sum whose addends span more than 100 digits is rounded to 17 digits, marked ≈, and the note says so")
    func rounded() throws {
        let sum = NumberValue.sum([Array("1e300".utf8), Array("1e-300".utf8), Array("2".utf8)])
        #expect(sum == NumberValue.Sum(text: "1e+300", exact: false))
        let nines = String(repeating: "9", count: 120)
        #expect(NumberValue.sum([Array(nines.utf8), Array("0.5".utf8)]) == NumberValue.Sum(text: "1e+120", exact: false))
        let text = "g,n\nb,1e300\nb,1e-300\nc,1\nc,2\n"
        var options = FormatOptions()
        options.format = .plain
        options.groupBy = ColumnReference("g")
        let out = try ReliabilityKit.format(Array(text.utf8), options: options).text
        #expect(out.contains("≈1e+300"), "\(out)")
        #expect(out.contains("\n  3\n") || out.contains(" 3\n"), "\(out)")
        #expect(out.contains("A total marked ≈ is rounded to 17 significant digits"))
        // No note when every total is exact.
        let exact = try ReliabilityKit.format(Array("g,n\nb,1e3\nb,1e3\n".utf8), options: options).text
        #expect(exact.contains("2000\n"))
        #expect(!exact.contains("≈"))
    }

    @Test("W12: through the whole pipeline, a Markdown footer holds Decimal's sum for 300 generated files")
    func pipelineFooters() throws {
        var random = SplitMix64(seed: 99)
        var options = FormatOptions()
        options.format = .markdown
        options.groupBy = ColumnReference("g")
        for round in 0..<300 {
            let family = random.below(6)
            var text = "g,n\n"
            var expected: [String: Decimal] = [:]
            var order: [String] = []
            for _ in 0..<(1 + random.below(30)) {
                let group = ["a", "b", "c"][random.below(3)]
                let n = Self.number(&random, family: family)
                text += "\(group),\"\(n.text)\"\n"
                if expected[group] == nil { order.append(group) }
                expected[group, default: 0] += n.value
            }
            let out = try ReliabilityKit.format(Array(text.utf8), options: options).text
            let totals = out.split(separator: "\n").filter { $0.hasPrefix("| **Total**") }.map { line -> String in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return cells.last.map { String($0.dropFirst(2).dropLast(2)) } ?? ""
            }
            #expect(totals.count == order.count, "round \(round): \(out)")
            for (group, total) in zip(order, totals) {
                #expect(Decimal(string: total, locale: Locale(identifier: "en_US_POSIX")) == expected[group], "round \(round) group \(group): \(total)\n\(text)")
            }
        }
    }
}
