import Input
import Layout
import Options
import Profile
import Support
import Text
import Transform
/// SHA-256 (FIPS 180-4), for the Content-Security-Policy of an HTML page (O6): the policy names
/// its inline style and script by their hashes, so the browser runs them and nothing else. Only
/// what the page needs: the digest of a text, and that digest in base64.
package enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of the bytes.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        // Padding: a 1 bit, zeros to 56 bytes past a multiple of 64, the length in bits big-endian.
        var data = message
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var schedule = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: data.count, by: 64) {
            for t in 0..<16 {
                let b = block + t * 4
                schedule[t] = UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
            }
            for t in 16..<64 {
                let s0 = rotate(schedule[t - 15], 7) ^ rotate(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3)
                let s1 = rotate(schedule[t - 2], 17) ^ rotate(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10)
                schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            for t in 0..<64 {
                let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let first = h &+ sum1 &+ choice &+ roundConstants[t] &+ schedule[t]
                let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ sum0 &+ majority)
            }
            for (k, value) in [a, b, c, d, e, f, g, h].enumerated() { state[k] = state[k] &+ value }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// The digest of a text's UTF-8, in base64 as a CSP source expression takes it.
    package static func base64Digest(_ text: String) -> String {
        base64(digest(Array(text.utf8)))
    }

    @inline(__always)
    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }

    /// Standard base64 with `=` padding (RFC 4648).
    package static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var k = 0
        while k < bytes.count {
            let n = min(3, bytes.count - k)
            let chunk = UInt32(bytes[k]) << 16 | (n > 1 ? UInt32(bytes[k + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[k + 2]) : 0)
            for j in 0..<4 {
                out.append(j <= n ? alphabet[Int(chunk >> UInt32(18 - 6 * j) & 63)] : UInt8(ascii: "="))
            }
            k += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
