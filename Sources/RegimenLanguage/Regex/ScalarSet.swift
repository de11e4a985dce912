/// A set of Unicode code points kept as sorted, disjoint, non-adjacent ranges: the character
/// classes of a regular expression.
package struct ScalarSet: Sendable, Hashable {
    static let maxScalar: UInt32 = 0x10FFFF

    package private(set) var ranges: [ClosedRange<UInt32>] = []

    init() {}

    init(_ ranges: [ClosedRange<UInt32>]) {
        for range in ranges { insert(range) }
    }

    static func single(_ scalar: UInt32) -> ScalarSet { ScalarSet([scalar...scalar]) }

    static var all: ScalarSet { ScalarSet([0...maxScalar]) }

    var isEmpty: Bool { ranges.isEmpty }

    /// The only code point of a one-element set.
    var singleScalar: UInt32? {
        guard ranges.count == 1, let range = ranges.first, range.lowerBound == range.upperBound else { return nil }
        return range.lowerBound
    }

    /// Binary search over the ranges.
    func contains(_ scalar: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if scalar < range.lowerBound {
                high = middle
            } else if scalar > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    mutating func insert(_ scalar: UInt32) { insert(scalar...scalar) }

    mutating func insert(_ range: ClosedRange<UInt32>) {
        // Find the first range that ends at or after range.lowerBound - 1 (it may merge).
        var low = 0
        var high = ranges.count
        let start = range.lowerBound == 0 ? 0 : range.lowerBound - 1
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < start { low = middle + 1 } else { high = middle }
        }
        var lower = range.lowerBound
        var upper = range.upperBound
        var end = low
        while end < ranges.count, ranges[end].lowerBound <= (upper == UInt32.max ? upper : upper + 1) {
            lower = Swift.min(lower, ranges[end].lowerBound)
            upper = Swift.max(upper, ranges[end].upperBound)
            end += 1
        }
        ranges.replaceSubrange(low..<end, with: [lower...upper])
    }

    mutating func formUnion(_ other: ScalarSet) {
        if ranges.isEmpty {
            ranges = other.ranges
            return
        }
        for range in other.ranges { insert(range) }
    }

    /// Every code point not in the set.
    var inverted: ScalarSet {
        var result = ScalarSet()
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.ranges.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= Self.maxScalar, ranges.last.map({ $0.upperBound < Self.maxScalar }) ?? true {
            result.ranges.append(next...Self.maxScalar)
        }
        return result
    }

    func intersection(_ other: ScalarSet) -> ScalarSet {
        var outside = inverted
        outside.formUnion(other.inverted)
        return outside.inverted
    }

    /// The set closed under simple case folding: `k` adds `K` and the Kelvin sign.
    var caseFolded: ScalarSet {
        var result = self
        for member in CaseFolding.foldingScalars(in: self) {
            for other in CaseFolding.orbit(of: member) { result.insert(other) }
        }
        return result
    }
}
