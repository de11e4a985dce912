/// Unicode simple case folding as RE2 applies it under `(?i)`: every code point matches the
/// whole orbit of code points that fold to the same one (`k`, `K` and the Kelvin sign U+212A;
/// `s`, `S` and the long s U+017F). Derived once from the standard library's case mappings.
enum CaseFolding {
    private struct Table: Sendable {
        /// Every code point whose orbit has more than one member, sorted.
        var foldingScalars: [UInt32] = []
        var orbits: [UInt32: [UInt32]] = [:]
    }

    /// The dotted capital I and the dotless small i fold only under Turkic rules, which RE2
    /// does not apply: each stays alone.
    private static let turkicOnly: Set<UInt32> = [0x130, 0x131]

    private static let table: Table = {
        var groups: [UInt32: [UInt32]] = [:]
        for value in UInt32(0)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped,
                  !turkicOnly.contains(value) else { continue }
            groups[key(scalar), default: []].append(value)
        }
        var table = Table()
        for (key, members) in groups {
            var orbit = Set(members)
            if !turkicOnly.contains(key) { orbit.insert(key) }
            guard orbit.count > 1 else { continue }
            let sorted = orbit.sorted()
            for member in sorted { table.orbits[member] = sorted }
        }
        table.foldingScalars = table.orbits.keys.sorted()
        return table
    }()

    private static func single(_ mapping: String) -> UInt32? {
        var iterator = mapping.unicodeScalars.makeIterator()
        guard let first = iterator.next(), iterator.next() == nil else { return nil }
        return first.value
    }

    /// The code point a scalar folds to: the lower case of its upper case, where both are single
    /// code points (`ſ` → `S` → `s`, `ς` → `Σ` → `σ`).
    private static func key(_ scalar: Unicode.Scalar) -> UInt32 {
        let upper = single(scalar.properties.uppercaseMapping) ?? scalar.value
        if let upperScalar = Unicode.Scalar(upper), let lower = single(upperScalar.properties.lowercaseMapping) {
            return lower
        }
        return single(scalar.properties.lowercaseMapping) ?? upper
    }

    /// The code points that match `scalar` case-insensitively (itself included), sorted.
    static func orbit(of scalar: UInt32) -> [UInt32] {
        table.orbits[scalar] ?? [scalar]
    }

    /// The members of `set` whose orbit has more than one code point.
    static func foldingScalars(in set: ScalarSet) -> [UInt32] {
        let all = table.foldingScalars
        var result: [UInt32] = []
        for range in set.ranges {
            var low = 0
            var high = all.count
            while low < high {
                let middle = (low + high) / 2
                if all[middle] < range.lowerBound { low = middle + 1 } else { high = middle }
            }
            while low < all.count, all[low] <= range.upperBound {
                result.append(all[low])
                low += 1
            }
        }
        return result
    }
}
