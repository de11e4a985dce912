/// Makes new document ids shaped like Firestore's auto ids: 20 characters from [A-Za-z0-9].
///
/// The ids come from a seeded generator so a duplication can be replayed and its output
/// compared; ids already in the tree are never handed out.
struct IdentifierGenerator: Sendable {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private var state: UInt64
    private var taken: Set<String>

    /// A generator seeded with `seed` that avoids the ids in `taken`.
    init(seed: UInt64, taken: Set<String> = []) {
        self.state = seed
        self.taken = taken
    }

    /// A seed derived from text (FNV-1a), stable across runs and platforms.
    static func seed(from text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The next unused id.
    package mutating func next() -> String {
        while true {
            var id = ""
            id.reserveCapacity(20)
            for _ in 0..<20 {
                let index = Int(nextRandom() % UInt64(Self.alphabet.count))
                id.append(Self.alphabet[index])
            }
            if taken.insert(id).inserted { return id }
        }
    }

    // SplitMix64: small, fast and well distributed, which is all ids need.
    private mutating func nextRandom() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
