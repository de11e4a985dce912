/// The named classes of RE2's grammar: `\p{…}` (general categories, scripts and `Any`, with the
/// tables of Firestore's emulator) and the POSIX classes of `[[:…:]]`, which are ASCII only.
enum UnicodeClasses {
    private static let named: [String: ScalarSet] = {
        var sets: [String: ScalarSet] = ["Any": .all]
        for (name, encoded) in UnicodeTables.categories { sets[name] = decode(encoded) }
        for (name, encoded) in UnicodeTables.scripts { sets[name] = decode(encoded) }
        return sets
    }()

    private static let folds: [String: ScalarSet] = {
        var sets: [String: ScalarSet] = [:]
        for (name, encoded) in UnicodeTables.foldCategories { sets[name] = decode(encoded) }
        for (name, encoded) in UnicodeTables.foldScripts { sets[name] = decode(encoded) }
        return sets
    }()

    /// Ranges written as `41-5A C0 100-12F/2 …` (hexadecimal; `/stride` takes every stride-th).
    private static func decode(_ encoded: String) -> ScalarSet {
        var set = ScalarSet()
        for item in encoded.split(separator: " ") {
            let parts = item.split(separator: "/")
            let stride = parts.count > 1 ? UInt32(parts[1], radix: 16) ?? 1 : 1
            let bounds = parts[0].split(separator: "-")
            guard let low = bounds.first.flatMap({ UInt32($0, radix: 16) }),
                  let high = bounds.last.flatMap({ UInt32($0, radix: 16) }), low <= high, stride > 0 else { continue }
            if stride == 1 {
                set.insert(low...high)
            } else {
                for scalar in Swift.stride(from: low, through: high, by: Int(stride)) { set.insert(scalar) }
            }
        }
        return set
    }

    /// Every code point the emulator's tables assign to a category.
    static let assigned: ScalarSet = {
        var set = ScalarSet()
        for name in ["C", "L", "M", "N", "P", "S", "Z"] { set.formUnion(named[name] ?? ScalarSet()) }
        return set
    }()

    /// `\pL`, `\p{Lu}`, `\p{Greek}`, `\p{Any}`; nil for a name the emulator does not know.
    static func set(named name: String) -> ScalarSet? { named[name] }

    /// `\p{name}` under `(?i)`: RE2/J adds its fold table for the class (code points outside
    /// it that fold into it), where it has one. RE2 adds every case variant instead, so the two
    /// differ: `(?i)\p{Ll}` does not match `A` in the emulator.
    static func caseInsensitiveSet(named name: String) -> ScalarSet? {
        guard var set = named[name] else { return nil }
        if let fold = folds[name] { set.formUnion(fold) }
        return set
    }

    static func posix(_ name: String) -> ScalarSet? {
        switch name {
        case "alnum": ScalarSet([48...57, 65...90, 97...122])
        case "alpha": ScalarSet([65...90, 97...122])
        case "ascii": ScalarSet([0...0x7F])
        case "blank": ScalarSet([9...9, 32...32])
        case "cntrl": ScalarSet([0...0x1F, 0x7F...0x7F])
        case "digit": ScalarSet([48...57])
        case "graph": ScalarSet([0x21...0x7E])
        case "lower": ScalarSet([97...122])
        case "print": ScalarSet([0x20...0x7E])
        case "punct": ScalarSet([0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E])
        case "space": ScalarSet([9...13, 32...32])
        case "upper": ScalarSet([65...90])
        case "word": ScalarSet([48...57, 65...90, 95...95, 97...122])
        case "xdigit": ScalarSet([48...57, 65...70, 97...102])
        default: nil
        }
    }
}
