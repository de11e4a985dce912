import Synchronization

/// A regular expression in RE2's grammar with RE2's semantics, matched in time linear in the
/// text (see ``PikeVM``). Positions are counted in Unicode scalars, as RE2 counts code points.
package struct RegularExpression: Sendable {
    let program: RegexProgram

    /// Compiles `pattern`, or throws why it is not in RE2's grammar.
    init(_ pattern: String) throws(RegexSyntaxError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        program = try RegexCompiler.compile(node, captureCount: parser.captureCount, captureNames: parser.captureNames)
    }

    /// For the symbolic analysis: the syntax tree of `pattern` (flags applied), and the longest
    /// text whose whole match ``wholeMatch(_:budget:steps:)`` decides within `budget` steps (each
    /// position costs at most two steps per instruction); nil when the pattern does not compile.
    package static func syntaxTree(_ pattern: String, budget: Int) -> (tree: RegexNode, decidedLength: Int)? {
        var parser = RegexParser(pattern)
        guard let node = try? parser.parse(),
              let program = try? RegexCompiler.compile(node, captureCount: parser.captureCount, captureNames: parser.captureNames) else { return nil }
        let perPosition = 2 * max(1, program.instructions.count)
        return (node, max(0, budget / perPosition - 2))
    }

    /// Why `pattern` is not in RE2's grammar, or nil when it is.
    package static func syntaxError(in pattern: String) -> RegexSyntaxError? {
        do {
            _ = try RegularExpression(pattern)
            return nil
        } catch {
            return error
        }
    }

    /// Number of capturing groups.
    var captureCount: Int { program.captureCount }

    /// Whether the pattern matches the whole text.
    func wholeMatch(_ text: String) -> Bool {
        var steps = 0
        return wholeMatch(text, steps: &steps) ?? false
    }

    /// Whether the pattern matches the whole text, or nil when finding out takes more than
    /// `budget` steps; adds the matcher's work to `steps`.
    func wholeMatch(_ text: String, budget: Int = .max, steps: inout Int) -> Bool? {
        var vm = PikeVM(program: program, text: text.unicodeScalars.map(\.value))
        let result = vm.wholeMatch(budget: budget)
        steps += vm.steps
        return result
    }

    /// Successive matches as Java's `Matcher.find()` (and so RE2/J, and Firestore) finds them:
    /// each search starts where the previous match ended, one code point further after an
    /// empty match; an empty match right after a non-empty one counts. Each search is linear in
    /// the text; but with every leftmost-first engine (RE2's and Rust's iterators too), many
    /// matches whose higher-priority alternatives run on to the end (`a*b|a` over `aaa…`) make
    /// the whole scan quadratic. So the scan gets a budget linear in the text,
    /// ``workBound(textLength:)``, and returns nil past it: a caller fails closed rather than stall.
    func matches(in scalars: [UInt32], budget limit: Int = .max, steps: inout Int) -> [[Int]]? {
        var found: [[Int]] = []
        let finished = forEachMatch(in: scalars, budget: limit, steps: &steps) { slots in
            found.append(slots)
            return true
        }
        return finished ? found : nil
    }

    /// The matches of ``matches(in:budget:steps:)`` handed to `body` one at a time, so a caller
    /// whose result has a size limit stops at the limit instead of collecting every match
    /// first (`s.split('')` over megabytes has millions). `body` returns false to stop. Returns
    /// false when the work passed its budget.
    func forEachMatch(in scalars: [UInt32], budget limit: Int = .max, steps: inout Int, _ body: ([Int]) -> Bool) -> Bool {
        var vm = PikeVM(program: program, text: scalars)
        let budget = Swift.min(limit, workBound(textLength: scalars.count))
        var start = 0
        while start <= scalars.count, let slots = vm.firstMatch(from: start, budget: budget) {
            if vm.steps > budget || !body(slots) { break }
            start = slots[1] == slots[0] ? slots[1] + 1 : slots[1]
        }
        steps += vm.steps
        return vm.steps <= budget
    }

    /// The work one scan over a text may take: a generous constant times (length + 1) ×
    /// program size. A single search never needs more than 3 × (length + 1) × size steps.
    func workBound(textLength: Int) -> Int {
        let (product, overflow) = (textLength + 1).multipliedReportingOverflow(by: 16 * program.instructions.count)
        return overflow ? Int.max : product
    }

    /// Compiled patterns by source text, so that a policy's literal patterns compile once.
    private static let cache = Mutex<[String: Result<RegularExpression, RegexSyntaxError>]>([:])
    private static let cacheCapacity = 256
    /// Longer patterns are compiled each time rather than kept.
    private static let cachedPatternLength = 4096

    /// `RegularExpression(pattern)`, remembered for later calls.
    static func cached(_ pattern: String) throws(RegexSyntaxError) -> RegularExpression {
        guard pattern.utf8.count <= cachedPatternLength else { return try RegularExpression(pattern) }
        if let known = cache.withLock({ $0[pattern] }) { return try known.get() }
        let result: Result<RegularExpression, RegexSyntaxError>
        do {
            result = .success(try RegularExpression(pattern))
        } catch {
            result = .failure(error)
        }
        cache.withLock { entries in
            if entries.count >= cacheCapacity { entries.removeAll(keepingCapacity: true) }
            entries[pattern] = result
        }
        return try result.get()
    }
}
