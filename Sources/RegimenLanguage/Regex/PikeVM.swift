/// Runs a ``RegexProgram`` over code points as a Pike VM: every NFA thread advances in lock
/// step, one input position at a time, and a program counter is added at most once per
/// position. Work is therefore at most proportional to (input length + 1) × program size,
/// whatever the pattern: there is no backtracking. Threads are kept in priority order, which
/// gives RE2's leftmost-first submatches.
struct PikeVM {
    let program: RegexProgram
    let text: [UInt32]
    /// Instructions visited so far (the unit of work; tests bound it).
    private(set) var steps = 0
    /// Thread lists kept between searches, so that finding every match of a long text does not
    /// allocate a program-sized buffer per match.
    private var spareLists: [ThreadList] = []

    init(program: RegexProgram, text: [UInt32]) {
        self.program = program
        self.text = text
    }

    private mutating func takeList() -> ThreadList {
        guard var list = spareLists.popLast() else { return ThreadList(capacity: program.instructions.count) }
        list.count = 0
        return list
    }

    /// A set of program counters in insertion order, cleared in O(1) (sparse set).
    private struct ThreadList {
        var dense: [Int]
        var sparse: [Int]
        var count = 0

        init(capacity: Int) {
            dense = Array(repeating: 0, count: capacity)
            sparse = Array(repeating: 0, count: capacity)
        }

        func contains(_ pc: Int) -> Bool {
            let index = sparse[pc]
            return index < count && dense[index] == pc
        }

        mutating func insert(_ pc: Int) {
            sparse[pc] = count
            dense[count] = pc
            count += 1
        }
    }

    private func holds(_ assertion: RegexAssertion, at position: Int) -> Bool {
        switch assertion {
        case .beginText: return position == 0
        case .endText: return position == text.count
        case .beginLine: return position == 0 || text[position - 1] == 10
        case .endLine: return position == text.count || text[position] == 10
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && Self.isWordScalar(text[position - 1])
            let after = position < text.count && Self.isWordScalar(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    private static func isWordScalar(_ scalar: UInt32) -> Bool {
        (48...57).contains(scalar) || (65...90).contains(scalar) || (97...122).contains(scalar) || scalar == 95
    }

    private func consumes(_ instruction: RegexInstruction, _ scalar: UInt32) -> Bool {
        switch instruction {
        case .scalar(let expected): expected == scalar
        case .set(let index): program.sets[index].contains(scalar)
        default: false
        }
    }

    // MARK: Whole match (no submatches)

    /// Whether the program matches all of the text (Firestore's `matches`); nil when that takes
    /// more than `budget` steps.
    mutating func wholeMatch(budget: Int = .max) -> Bool? {
        var current = takeList()
        var following = takeList()
        defer { spareLists += [current, following] }
        var stack: [Int] = []
        addClosure(0, at: 0, to: &current, stack: &stack)
        var position = 0
        while current.count > 0 {
            for index in 0..<current.count {
                let pc = current.dense[index]
                steps += 1
                let instruction = program.instructions[pc]
                if case .match = instruction {
                    if position == text.count { return true }
                } else if position < text.count, consumes(instruction, text[position]) {
                    addClosure(pc + 1, at: position + 1, to: &following, stack: &stack)
                }
            }
            if position == text.count { break }
            if steps > budget { return nil }
            swap(&current, &following)
            following.count = 0
            position += 1
        }
        return false
    }

    /// Adds `pc` and everything reachable from it without consuming input.
    private mutating func addClosure(_ start: Int, at position: Int, to list: inout ThreadList, stack: inout [Int]) {
        stack.append(start)
        while let pc = stack.popLast() {
            guard !list.contains(pc) else { continue }
            list.insert(pc)
            steps += 1
            switch program.instructions[pc] {
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .save: stack.append(pc + 1)
            case .assertion(let assertion):
                if holds(assertion, at: position) { stack.append(pc + 1) }
            case .scalar, .set, .match: break
            }
        }
    }

    // MARK: Search with submatches

    private struct Thread {
        var pc: Int
        var slots: [Int]
    }

    /// The leftmost-first match starting at or after `from`: capture slots (-1 where a group did
    /// not take part), or nil; also nil as soon as the steps pass `budget` (callers check).
    mutating func firstMatch(from start: Int, budget: Int = .max) -> [Int]? {
        var seenCurrent = takeList()
        var seenFollowing = takeList()
        defer { spareLists += [seenCurrent, seenFollowing] }
        var current: [Thread] = []
        var following: [Thread] = []
        var work: [(Int, [Int])] = []
        var matched: [Int]?
        let empty = Array(repeating: -1, count: program.slotCount)
        var position = start
        while true {
            if matched == nil {
                // A new attempt starts here, with the lowest priority.
                addThreads(0, empty, at: position, to: &current, seen: &seenCurrent, work: &work)
            }
            if current.isEmpty, matched != nil { break }
            seenFollowing.count = 0
            threads: for thread in current {
                steps += 1
                let instruction = program.instructions[thread.pc]
                if case .match = instruction {
                    matched = thread.slots
                    // Lower-priority threads can no longer win.
                    break threads
                }
                if position < text.count, consumes(instruction, text[position]) {
                    addThreads(thread.pc + 1, thread.slots, at: position + 1, to: &following, seen: &seenFollowing, work: &work)
                }
            }
            if position >= text.count || steps > budget { break }
            swap(&current, &following)
            swap(&seenCurrent, &seenFollowing)
            following.removeAll(keepingCapacity: true)
            position += 1
        }
        return matched
    }

    /// Adds the closure of `start` to `list` in priority order; `seen` holds the counters already
    /// added at this position.
    private mutating func addThreads(_ start: Int, _ slots: [Int], at position: Int, to list: inout [Thread], seen: inout ThreadList, work: inout [(Int, [Int])]) {
        work.append((start, slots))
        while let (pc, slotsOfItem) = work.popLast() {
            var slots = slotsOfItem
            guard !seen.contains(pc) else { continue }
            seen.insert(pc)
            steps += 1
            switch program.instructions[pc] {
            case .jump(let target):
                work.append((target, slots))
            case .split(let first, let second):
                work.append((second, slots))
                work.append((first, slots))
            case .save(let slot):
                slots[slot] = position
                work.append((pc + 1, slots))
            case .assertion(let assertion):
                if holds(assertion, at: position) { work.append((pc + 1, slots)) }
            case .scalar, .set, .match:
                list.append(Thread(pc: pc, slots: slots))
            }
        }
    }
}
