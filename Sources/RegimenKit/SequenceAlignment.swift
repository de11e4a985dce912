/// Two sequences aligned by equal keys (a longest common subsequence), so that a comparison
/// reports an element inserted in the middle as one insertion rather than as every later
/// element changed. Between two kept elements, the removed and inserted elements are paired in
/// order as replacements (an exercise swapped for another in the same place); the unpaired rest
/// are removals or insertions.
///
/// ```swift
/// SequenceAlignment.align(["squat", "bench", "row"], ["squat", "fly", "bench", "row"])
/// // [.kept(0, 0), .inserted(1), .kept(1, 2), .kept(2, 3)]
/// ```
enum SequenceAlignment {
    /// One step of an alignment, by the elements' offsets in their sequences.
    enum Step: Sendable, Hashable {
        /// The same key on both sides.
        case kept(before: Int, after: Int)
        /// A different key in the same place.
        case replaced(before: Int, after: Int)
        /// An element of `before` with no counterpart.
        case removed(before: Int)
        /// An element of `after` with no counterpart.
        case inserted(after: Int)
    }

    /// The alignment of `before` with `after`, in the order of both sequences (a removal comes
    /// before the insertions of the same gap that it was not paired with).
    static func align<Key: Equatable>(_ before: [Key], _ after: [Key]) -> [Step] {
        let kept = commonSubsequence(before, after)
        var steps: [Step] = []
        var nextBefore = 0, nextAfter = 0
        // Each kept pair closes a gap; a sentinel pair past both ends closes the last one.
        for (anchorBefore, anchorAfter) in kept + [(before.count, after.count)] {
            let removed = Array(nextBefore..<anchorBefore), inserted = Array(nextAfter..<anchorAfter)
            let paired = min(removed.count, inserted.count)
            for offset in 0..<paired { steps.append(.replaced(before: removed[offset], after: inserted[offset])) }
            for index in removed.dropFirst(paired) { steps.append(.removed(before: index)) }
            for index in inserted.dropFirst(paired) { steps.append(.inserted(after: index)) }
            if anchorBefore < before.count, anchorAfter < after.count { steps.append(.kept(before: anchorBefore, after: anchorAfter)) }
            nextBefore = anchorBefore + 1
            nextAfter = anchorAfter + 1
        }
        return steps
    }

    /// The offsets of a longest common subsequence, as (before, after) pairs in order. The table
    /// is (n+1)·(m+1) cells: a plan day holds a handful of blocks, so this stays tiny.
    private static func commonSubsequence<Key: Equatable>(_ before: [Key], _ after: [Key]) -> [(Int, Int)] {
        let width = after.count + 1
        // length[i * width + j]: the longest common subsequence of before[i...] and after[j...].
        var length = [Int](repeating: 0, count: (before.count + 1) * width)
        for i in stride(from: before.count - 1, through: 0, by: -1) {
            for j in stride(from: after.count - 1, through: 0, by: -1) {
                length[i * width + j] = before[i] == after[j]
                    ? length[(i + 1) * width + j + 1] + 1
                    : max(length[(i + 1) * width + j], length[i * width + j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0, j = 0
        while i < before.count, j < after.count {
            if before[i] == after[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if length[(i + 1) * width + j] >= length[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
