import Foundation
import FuzzSupport
import RegimenLanguage

/// Structure-aware: the input's bytes are choices, not text. They pick an expression from the
/// language's grammar (the operations that touch whole values: membership, set and list methods,
/// comparisons, concatenation, slicing, patterns, map diffs) and variable values of every size
/// class (empty, one, a few, a thousand, tens of thousands of elements; strings to 200 KB).
///
/// The oracle is counted, never the clock (wall time flakes under ASan on shared cores): values
/// count every comparison and hash they really do (`WorkCounter`, compiled into fuzz builds), and
/// the input fails when that work exceeds a constant times what the evaluator charged (its steps
/// plus its cost units, ``Cost``). An operation whose work grows faster than its charge — a
/// product of two sizes, a deep comparison charged for the top level — is a finding, whatever
/// the machine's speed. Charges themselves never pass the limits.
let variables = ["a", "b", "s", "t", "m", "n"]
let environment: ExpressionEnvironment? = try? ExpressionEnvironment(variables: variables)

/// Work per charged unit the model allows: a hash or comparison per element, with room for
/// hash collisions, set rebuilding and the copies `setKey` makes.
let workPerUnit = 32

/// Every value the generator can choose, built once before the first input.
///
/// Building a 20,000-element list of maps allocates 40,000 times; under ASan each allocation
/// records its stack, so building the variables per input was most of an input's time (with the
/// regular expression matcher) and held the campaign at 5–16 inputs a second. The values are
/// immutable and copy-on-write, so an input handed a prebuilt value sees exactly the value it
/// would have built; the counter is reset after the choices, as before, so what is checked (the
/// work of evaluation against its charge) is unchanged.
struct SizeClassValues {
    static let sizes = [0, 1, 3, 8, 1_000, 20_000]
    static let kinds = [0, 1, 2, 3, 4]
    static let stringLengths = [0, 1, 10, 1_000, 200_000]
    static let stringUnits = ["a", "ab", "é"]

    /// By size index, kind, and shift choice (0, 1 or size / 2).
    let lists: [[[Value]]]
    /// A list of `size` integers, the large first element of a list, by size index.
    let nested: [Value]
    /// By length index and repeated unit.
    let strings: [[Value]]
    /// By size index and kind.
    let maps: [[Value]]

    init() {
        lists = Self.sizes.map { count in
            Self.kinds.map { kind in
                [0, 1, count / 2].map { shift in .list((0..<count).map { Generator.element($0 + shift, kind: kind) }) }
            }
        }
        nested = Self.sizes.map { count in .list((0..<count).map { .int(Int64($0)) }) }
        strings = Self.stringLengths.map { length in Self.stringUnits.map { .string(String(repeating: $0, count: length / 2)) } }
        maps = Self.sizes.map { count in
            Self.kinds.map { kind in
                var map = Value.Map()
                for index in 0..<count { map["k\(index)"] = Generator.element(index, kind: kind) }
                return .map(map)
            }
        }
    }
}

let sizeClassValues = SizeClassValues()

struct Generator {
    var choices: Choices

    /// The index of a size class in ``SizeClassValues/sizes`` (0, 1, 3, 8, 1,000, 20,000).
    mutating func sizeIndex() -> Int { choices.pick(Array(SizeClassValues.sizes.indices)) }

    static func element(_ index: Int, kind: Int) -> Value {
        switch kind {
        case 0: .int(Int64(index))
        case 1: .float(Double(index))
        case 2: .string("k\(index)")
        case 3: .list([.int(Int64(index)), .float(Double(index))])
        default: .map(["v": .int(Int64(index % 7))])
        }
    }

    /// A list of a size class, its elements shifted by 0, 1 or half its size, of one kind; the
    /// same choices, in the same order, as when each input built its own.
    mutating func list() -> Value {
        let size = sizeIndex()
        let shift = choices.pick([0, 1, 2])
        let kind = choices.pick(SizeClassValues.kinds)
        let built = sizeClassValues.lists[size][kind][shift]
        // Sometimes one element is itself large: deep values must be charged deeply.
        guard choices.pick([false, false, true]), SizeClassValues.sizes[size] > 0, case .list(var items) = built else { return built }
        items[0] = sizeClassValues.nested[sizeIndex()]
        return .list(items)
    }

    mutating func string() -> Value {
        // Up to 200 KB: large enough that a quadratic string operation shows in the counts, small
        // enough that ASan's slowdown keeps an input well under libFuzzer's timeout.
        let length = choices.pick(Array(SizeClassValues.stringLengths.indices))
        return sizeClassValues.strings[length][choices.pick(Array(SizeClassValues.stringUnits.indices))]
    }

    mutating func map() -> Value {
        let kind = choices.pick(SizeClassValues.kinds)
        return sizeClassValues.maps[sizeIndex()][kind]
    }

    mutating func operand(depth: Int) -> String {
        if depth > 2 || choices.isEmpty { return choices.pick(["a", "b", "a.toSet()", "b.toSet()", "m.keys()", "m.values()"]) }
        return expression(depth: depth + 1)
    }

    mutating func expression(depth: Int) -> String {
        let x = operand(depth: depth)
        let y = operand(depth: depth)
        switch choices.pick(Array(0..<22)) {
        case 0: return "\(x).hasAll(\(y))"
        case 1: return "\(x).hasAny(\(y))"
        case 2: return "\(x).hasOnly(\(y))"
        case 3: return "a.removeAll(\(y))"
        case 4: return "a.toSet().intersection(\(y).toSet())"
        case 5: return "b.toSet().difference(\(x).toSet())"
        case 6: return "a.toSet().union(b.toSet())"
        case 7: return "(\(x) == \(y))"
        case 8: return "(a[0] in \(y))"
        case 9: return "(b in [a, b].toSet())"
        case 10: return "a.concat(\(y))"
        case 11: return "(s + t)"
        case 12: return "s.split(t)"
        case 13: return "s.replace(t, s)"
        case 14: return "s.split('')"
        case 15: return "s[0:s.size()]"
        case 16: return "m.diff(n).changedKeys()"
        case 17: return "m.diff(n).affectedKeys().size()"
        case 18: return "(m == n)"
        case 19: return "[\(x), \(y)].toSet().size()"
        case 20: return "(\(x) == \(y)) && (\(x) == \(y)) && (\(x) == \(y))"
        default: return "m.keys().hasOnly(n.keys())"
        }
    }
}

/// A value's kind and top-level size, for a finding's message.
func describe(_ value: Value) -> String {
    switch value {
    case .list(let items): "list of \(items.count)"
    case .map(let map): "map of \(map.count)"
    case .string(let text): "string of \(text.utf8.count) bytes"
    default: value.typeName
    }
}

func fuzzCost(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let environment, size > 0 else { return 0 }
    var generator = Generator(choices: Choices(ArraySlice(input.bytes)))
    // `t` is a pattern: short, as patterns are (a long one only spends the regex step budget).
    let pattern = Value.string(generator.choices.pick(["", "a", ",", "a*", "(a|ab)*b", "é", "[^b]"]))
    let slots = [generator.list(), generator.list(), generator.string(), pattern, generator.map(), generator.map()]
    let text = generator.expression(depth: 0)
    guard let expression = try? CompiledExpression(text, environment: environment) else { return 0 }
    // Budgets a quarter and a thirty-second of the defaults: the ratio of work to charge is what
    // is checked, and a full regex budget over 1 MiB takes seconds under ASan (libFuzzer's
    // per-input timeout is 1 s).
    let limits = EvaluationLimits(maxPatternSteps: 1 << 20, maxCost: 1_000_000)
    WorkCounter.units = 0
    let measured = expression.measure(slots: slots, limits: limits)
    let work = WorkCounter.units
    let charged = measured.steps + measured.cost
    // FUZZ_COST_PRINT=1 shows what an input generated (to read a finding).
    if ProcessInfo.processInfo.environment["FUZZ_COST_PRINT"] != nil {
        print("\(text) over \(slots.map(describe)): steps \(measured.steps), cost \(measured.cost), work \(work), outcome \(measured.outcome)".prefix(600))
    }
    precondition(measured.cost <= limits.maxCost && measured.steps <= limits.maxSteps + 1, "charges past the limits: \(text)")
    if work > workPerUnit * (charged + 1) {
        fatalError("uncharged work: \(work) comparisons and hashes for \(charged) charged units in \(text) (sizes \(slots.map(describe)))")
    }
    return 0
}

@_cdecl("FuzzCost_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    // Build the size-class values before libFuzzer starts (memory a global keeps for the process).
    _ = sizeClassValues.lists.count
    return runFuzzer(argc, argv) { data, size in fuzzCost(data, size) }
}
