/// The named classes of RE2's grammar: `\p{…}` (general categories, scripts and `Any`) and the
/// POSIX classes of `[[:…:]]`, which are ASCII only.
enum UnicodeClasses {
    private static let named: [String: ScalarSet] = {
        var sets: [String: ScalarSet] = ["Any": .all]
        for (name, encoded) in UnicodeTables.categories { sets[name] = decode(encoded) }
        for (name, encoded) in UnicodeTables.scripts { sets[name] = decode(encoded) }
        return sets
    }()

    /// Ranges written as `41-5A C0 …` (hexadecimal).
    private static func decode(_ encoded: String) -> ScalarSet {
        var set = ScalarSet()
        for item in encoded.split(separator: " ") {
            let bounds = item.split(separator: "-")
            guard let low = bounds.first.flatMap({ UInt32($0, radix: 16) }),
                  let high = bounds.last.flatMap({ UInt32($0, radix: 16) }), low <= high else { continue }
            set.insert(low...high)
        }
        return set
    }

    /// `\pL`, `\p{Lu}`, `\p{Greek}`, `\p{Any}`; nil for a name RE2 does not know.
    static func set(named name: String) -> ScalarSet? { named[name] }

    /// The `\p` classes `(?i)` widens to their case variants. RE2 widens every class; Firestore's
    /// RE2/J only these (the emulator: `(?i)\p{Lu}` matches `a`, `(?i)\p{Ll}` does not match `A`,
    /// `(?i)\pL` does not match U+0345, `(?i)\p{Greek}` matches `µ`).
    static func foldsUnderCaseInsensitivity(_ name: String) -> Bool {
        ["Lu", "Lt", "Mn", "Greek", "Common", "Inherited"].contains(name)
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
