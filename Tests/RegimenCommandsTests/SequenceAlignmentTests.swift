import Testing
@testable import RegimenKit

/// The alignment impact compares a day's blocks by: equal keys kept in order, an element added
/// or dropped in the middle one step (the rest kept), a different key in the same gap paired as
/// a replacement, and every element of both sides accounted for exactly once.
@Suite struct SequenceAlignmentTests {
    @Test func anElementAddedMidSequenceIsOneInsertion() {
        #expect(SequenceAlignment.align(["squat", "bench", "row"], ["squat", "fly", "bench", "row"])
            == [.kept(before: 0, after: 0), .inserted(after: 1), .kept(before: 1, after: 2), .kept(before: 2, after: 3)])
    }

    @Test func anElementDroppedMidSequenceIsOneRemoval() {
        #expect(SequenceAlignment.align(["squat", "fly", "bench"], ["squat", "bench"])
            == [.kept(before: 0, after: 0), .removed(before: 1), .kept(before: 2, after: 1)])
    }

    @Test func aDifferentElementInTheSamePlaceIsAReplacement() {
        #expect(SequenceAlignment.align(["squat", "bench", "row"], ["squat", "dumbbell_bench", "row"])
            == [.kept(before: 0, after: 0), .replaced(before: 1, after: 1), .kept(before: 2, after: 2)])
    }

    @Test func emptySidesAreAllInsertionsOrAllRemovals() {
        #expect(SequenceAlignment.align([String](), []) == [])
        #expect(SequenceAlignment.align([], ["a", "b"]) == [.inserted(after: 0), .inserted(after: 1)])
        #expect(SequenceAlignment.align(["a", "b"], []) == [.removed(before: 0), .removed(before: 1)])
    }

    /// Property over seeded random sequences of a small alphabet (repeats included): each index
    /// of each side appears exactly once, in order, and kept pairs have equal keys.
    @Test func everyElementIsAccountedForOnceInOrder() {
        var state: UInt64 = 20261128
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<500 {
            let before = (0..<next(8)).map { _ in ["a", "b", "c", "d"][next(4)] }
            let after = (0..<next(8)).map { _ in ["a", "b", "c", "d"][next(4)] }
            var olds: [Int] = [], news: [Int] = []
            for step in SequenceAlignment.align(before, after) {
                switch step {
                case .kept(let b, let a):
                    #expect(before[b] == after[a])
                    olds.append(b)
                    news.append(a)
                case .replaced(let b, let a):
                    olds.append(b)
                    news.append(a)
                case .removed(let b): olds.append(b)
                case .inserted(let a): news.append(a)
                }
            }
            #expect(olds == Array(before.indices), "\(before) → \(after)")
            #expect(news == Array(after.indices), "\(before) → \(after)")
        }
    }
}
