import Crypto

/// The `hashing` namespace: digests of a string's UTF-8 or of bytes, returned as bytes.
/// MD5 and SHA-256 come from swift-crypto; the CRCs are small table-driven loops (no package of
/// the allowed set has them), checked against the standard check values in the tests.
enum Hashing {
    static func md5(_ data: [UInt8]) -> [UInt8] { Array(Insecure.MD5.hash(data: data)) }

    static func sha256(_ data: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: data)) }

    /// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), four bytes, least significant first
    /// as Firestore returns it (`crc32('123456789')` is CBF43926, written `26 39 F4 CB`).
    static func crc32(_ data: [UInt8]) -> [UInt8] { littleEndian(checksum(data, table: ieeeTable)) }

    /// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), in the same byte order.
    static func crc32c(_ data: [UInt8]) -> [UInt8] { littleEndian(checksum(data, table: castagnoliTable)) }

    private static let ieeeTable = table(polynomial: 0xEDB8_8320)
    private static let castagnoliTable = table(polynomial: 0x82F6_3B78)

    private static func table(polynomial: UInt32) -> [UInt32] {
        (0..<256).map { index -> UInt32 in
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
            return crc
        }
    }

    private static func checksum(_ data: [UInt8], table: [UInt32]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
