/// One instruction of a compiled regular expression (a Thompson NFA laid out as a program).
enum RegexInstruction: Sendable, Hashable {
    /// Consume this code point.
    case scalar(UInt32)
    /// Consume a code point of `sets[index]`.
    case set(Int)
    /// Continue at both targets; the first has priority (leftmost-first semantics).
    case split(Int, Int)
    case jump(Int)
    /// Record the current position in capture slot `n` (group k uses slots 2k and 2k+1).
    case save(Int)
    case assertion(RegexAssertion)
    case match
}

/// A compiled pattern: instructions, the sets they test, and the groups.
struct RegexProgram: Sendable {
    /// Bounds the memory and the per-character work of one pattern. RE2 bounds its programs
    /// too (by memory); RE2/J does not, so a pattern past this size is rejected here although
    /// Firestore may accept it (`(a{1000}){1000}`).
    static let maxInstructions = 100_000

    var instructions: [RegexInstruction] = []
    var sets: [ScalarSet] = []
    /// Number of capturing groups (group 0, the whole match, not counted).
    var captureCount = 0
    var captureNames: [String: Int] = [:]

    var slotCount: Int { 2 * (captureCount + 1) }
}

/// Turns a parsed pattern into a ``RegexProgram``: `save 0; pattern; save 1; match`.
/// Counted repetitions are expanded (`x{2,4}` is `xx(x(x)?)?`), so the size is checked as
/// instructions are emitted.
struct RegexCompiler {
    private var program = RegexProgram()
    private var setIndex: [ScalarSet: Int] = [:]

    static func compile(_ node: RegexNode, captureCount: Int, captureNames: [String: Int]) throws(RegexSyntaxError) -> RegexProgram {
        var compiler = RegexCompiler()
        compiler.program.captureCount = captureCount
        compiler.program.captureNames = captureNames
        try compiler.emit(.save(0))
        try compiler.compile(node)
        try compiler.emit(.save(1))
        try compiler.emit(.match)
        return compiler.program
    }

    private var next: Int { program.instructions.count }

    @discardableResult
    private mutating func emit(_ instruction: RegexInstruction) throws(RegexSyntaxError) -> Int {
        guard program.instructions.count < RegexProgram.maxInstructions else {
            throw RegexSyntaxError(message: "pattern too large: more than \(RegexProgram.maxInstructions) instructions", offset: 0)
        }
        program.instructions.append(instruction)
        return program.instructions.count - 1
    }

    private mutating func patch(_ at: Int, _ instruction: RegexInstruction) {
        program.instructions[at] = instruction
    }

    private mutating func compile(_ node: RegexNode) throws(RegexSyntaxError) {
        switch node {
        case .empty:
            break
        case .set(let set):
            if let single = set.singleScalar {
                try emit(.scalar(single))
            } else {
                let index: Int
                if let known = setIndex[set] {
                    index = known
                } else {
                    index = program.sets.count
                    program.sets.append(set)
                    setIndex[set] = index
                }
                try emit(.set(index))
            }
        case .assertion(let assertion):
            try emit(.assertion(assertion))
        case .capture(let index, let inner):
            try emit(.save(2 * index))
            try compile(inner)
            try emit(.save(2 * index + 1))
        case .concatenation(let items):
            for item in items { try compile(item) }
        case .alternation(let items):
            var exits: [Int] = []
            for (offset, item) in items.enumerated() {
                if offset == items.count - 1 {
                    try compile(item)
                } else {
                    let split = try emit(.jump(0))
                    try compile(item)
                    exits.append(try emit(.jump(0)))
                    patch(split, .split(split + 1, next))
                }
            }
            for exit in exits { patch(exit, .jump(next)) }
        case .repetition(let inner, let min, let max, let greedy):
            try compileRepetition(inner, min: min, max: max, greedy: greedy)
        }
    }

    private mutating func split(_ at: Int, preferring first: Int, _ second: Int, greedy: Bool) {
        patch(at, greedy ? .split(first, second) : .split(second, first))
    }

    private mutating func compileRepetition(_ inner: RegexNode, min: Int, max: Int?, greedy: Bool) throws(RegexSyntaxError) {
        // Mandatory copies; an unbounded tail loops on the last one (`x{2,}` is `x x+`).
        let mandatory = max == nil && min > 0 ? min - 1 : min
        for _ in 0..<mandatory { try compile(inner) }
        guard let max else {
            if min > 0 {
                try plus(inner, greedy: greedy)
            } else if inner.isNullable {
                // As RE2 does: x* for an x that can match empty is (x+)?, which keeps the
                // priority order of the loop's choices within one position.
                let skip = try emit(.jump(0))
                try plus(inner, greedy: greedy)
                split(skip, preferring: skip + 1, next, greedy: greedy)
            } else {
                let loop = try emit(.jump(0))
                try compile(inner)
                try emit(.jump(loop))
                split(loop, preferring: loop + 1, next, greedy: greedy)
            }
            return
        }
        // Optional copies nest: x{0,3} is (x(x(x)?)?)?, every skip going to the common end.
        var skips: [Int] = []
        for _ in 0..<(max - min) {
            skips.append(try emit(.jump(0)))
            try compile(inner)
        }
        for skip in skips { split(skip, preferring: skip + 1, next, greedy: greedy) }
    }

    private mutating func plus(_ inner: RegexNode, greedy: Bool) throws(RegexSyntaxError) {
        let start = next
        try compile(inner)
        let loop = try emit(.jump(0))
        split(loop, preferring: start, loop + 1, greedy: greedy)
    }
}
