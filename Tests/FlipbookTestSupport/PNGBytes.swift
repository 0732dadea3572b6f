/// Hand-made PNG files for tests of hostile and odd inputs: chunks with correct CRCs, zlib
/// streams of one stored block, and a header-only "bomb".
public enum PNGBytes {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// CRC-32 (PNG's: reflected, polynomial 0xEDB88320) of `bytes`.
    public static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A chunk: length, type, data, CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc(body))
    }

    /// An 8-bit IHDR chunk of colour type `type`.
    public static func ihdr(_ w: UInt32, _ h: UInt32, type: UInt8 = 6) -> [UInt8] {
        chunk("IHDR", be32(w) + be32(h) + [8, type, 0, 0, 0])
    }

    /// A zlib stream of one stored (uncompressed) block holding `raw`.
    public static func zlib(_ raw: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in raw { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        let n = UInt16(raw.count)
        return [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + raw + be32(b << 16 | a)
    }

    /// A structurally whole PNG whose header says 16384×16384 and whose pixel data could never
    /// decode: what sizes come from the headers is tested with it.
    public static func headerOnlyGiant() -> [UInt8] {
        signature + ihdr(16384, 16384) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + chunk("IEND", [])
    }
}
