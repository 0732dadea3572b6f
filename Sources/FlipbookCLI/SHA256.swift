import Foundation

/// SHA-256 (FIPS 180-4), in Swift: the content hashes of `flipbook plan`, the shard manifests
/// and `flipbook verify`.
///
/// Foundation on Linux has no digest API and Flipbook takes no crypto dependency for one hash,
/// so this is the textbook algorithm: 64-byte blocks, eight 32-bit words of state, 64 rounds.
/// It is checked against `sha256sum` and the FIPS test vectors (`ScaleOutTests`). Streaming:
///
///     var h = SHA256()
///     h.update(bytes)            // as many times as needed
///     let hex = h.finalize().hex // "e3b0c442…" for no input
struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    init() {}

    /// Hashes `bytes` after what was hashed so far.
    mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        length &+= UInt64(bytes.count)
        buffer.append(contentsOf: bytes)
        if buffer.count < 64 { return }
        let whole = buffer.count / 64 * 64
        buffer.withUnsafeBufferPointer { p in
            var i = 0
            while i < whole { compress(UnsafeBufferPointer(rebasing: p[i..<(i + 64)])); i += 64 }
        }
        buffer.removeFirst(whole)
    }

    /// Hashes the UTF-8 bytes of `text`.
    mutating func update(_ text: String) { update(Array(text.utf8)) }

    /// The digest of everything hashed (the hasher is consumed).
    consuming func finalize() -> Digest {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (buffer.count + tail.count) % 64 != 56 { tail.append(0) }
        for s in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(s))) }
        let saved = length
        update(tail)
        length = saved
        let s = state
        var out: [UInt8] = []
        for w in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7] {
            out += [UInt8(w >> 24), UInt8(truncatingIfNeeded: w >> 16), UInt8(truncatingIfNeeded: w >> 8), UInt8(truncatingIfNeeded: w)]
        }
        return Digest(bytes: out)
    }

    /// The digest of `bytes`.
    static func hash<C: Collection>(_ bytes: C) -> Digest where C.Element == UInt8 {
        var h = SHA256(); h.update(bytes); return h.finalize()
    }

    /// The digest of the file at `path`, read in 1 MiB pieces; `nil` when it cannot be read.
    static func hash(fileAtPath path: String) -> Digest? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var h = SHA256()
        while true {
            // `nil` or empty at the end of the file; a read error throws.
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }
            h.update(chunk)
        }
        return h.finalize()
    }

    /// 32 bytes; ``hex`` is how Flipbook writes it (lower case, like `sha256sum`).
    struct Digest: Sendable, Equatable {
        var bytes: [UInt8]
        var hex: String {
            let digits = Array("0123456789abcdef".utf8)
            var out: [UInt8] = []
            out.reserveCapacity(64)
            for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private mutating func compress(_ block: UnsafeBufferPointer<UInt8>) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ Self.k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            h = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}
