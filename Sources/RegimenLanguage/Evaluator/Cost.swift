import OrderedCollections
/// What each operation charges against ``EvaluationLimits/maxCost``, before it does the work.
///
/// A step (``EvaluationLimits/maxSteps``) counts nodes; one node can still touch a whole
/// collection (`l.hasAll(m)`, `x in l`, `a == b`) or a whole string (`s + t`, `s[i]`). Like CEL's
/// runtime cost limit, every such operation is charged in proportion to the sizes it touches, so
/// the work of one evaluation is bounded by the cost limit whatever the inputs are. One unit is
/// one element of a list, set or map, or ``bytesPerUnit`` bytes of a string (UTF-8) or bytes.
/// Membership and set operations are hashed, so their cost is a sum of sizes, never a product.
///
/// | operation | cost |
/// |---|---|
/// | `x in list`, `list.hasAny/hasAll/hasOnly/removeAll(l)`, set operations, `toSet()`, `concat` | size of receiver + size of argument |
/// | `x in set`, `x in map` | size of `x` |
/// | `a == b`, `a != b` on lists, maps, sets | the smaller operand's size, counted at every depth |
/// | `s + t`, `join`, `lower/upper/trim`, `toUtf8`, `toBase64`, `toHexString`, `s[i]`, `s[a:b]` | bytes touched / ``bytesPerUnit`` |
/// | `matches`, `split`, `replace` | text length / ``bytesPerUnit``, plus the regex step budget (``EvaluationLimits/maxPatternSteps``) |
/// | `keys()`, `values()`, `diff()`, `l[a:b]` | size of the map(s) or list |
/// | `hashing.*`, `string()`, `int()`, `float()` of a string | bytes / ``bytesPerUnit`` |
/// | every other operation | 0 (it counts its step only) |
///
/// The grant-only path (``GrantCompiler``) runs and charges exactly what the value evaluator
/// does, in the same order (`b` in `error && b` too), so running out of budget denies in both.
enum Cost {
    /// Bytes of a string or bytes value per unit.
    static let bytesPerUnit = 8

    /// Units for a value's top-level size: elements, or bytes / ``bytesPerUnit``.
    static func size(_ value: Value) -> Int {
        switch value {
        case .string(let s): s.utf8.count / bytesPerUnit
        case .bytes(let b): b.count / bytesPerUnit
        case .list(let l): l.count
        case .set(let s): s.count
        case .map(let m): m.count
        case .mapDiff(let d): d.left.count + d.right.count
        case .path(let p): p.segments.count
        default: 0
        }
    }

    /// Units for a value counted at every depth (what a deep comparison or a set key touches),
    /// stopping once `cap` is passed: the walk is never longer than the work it prices.
    static func deepSize(_ value: Value, cap: Int) -> Int {
        var total = 0
        var pending: [Value] = [value]
        while let next = pending.popLast(), total <= cap {
            total += 1 + size(next)
            switch next {
            case .list(let l): pending.append(contentsOf: l.lazy.filter(Self.isComposite))
            case .map(let m): pending.append(contentsOf: m.values.lazy.filter(Self.isComposite))
            case .set(let s): pending.append(contentsOf: s.elements.lazy.filter(Self.isComposite))
            default: break
            }
        }
        return total
    }

    private static func isComposite(_ value: Value) -> Bool {
        switch value {
        case .list, .map, .set: true
        case .string(let s): s.utf8.count >= bytesPerUnit
        default: false
        }
    }

    /// `a == b` compares deeply only values of one collection type of equal top-level size.
    static func equality(_ lhs: Value, _ rhs: Value, cap: Int) -> Int {
        switch (lhs, rhs) {
        case (.list, .list), (.map, .map), (.set, .set):
            guard size(lhs) == size(rhs) else { return 0 }
            return min(deepSize(lhs, cap: cap), deepSize(rhs, cap: cap))
        case let (.string(a), .string(b)):
            return a.utf8.count == b.utf8.count ? size(lhs) : 0
        default:
            return 0
        }
    }

    /// `element in container`.
    static func membership(_ element: Value, _ container: Value, cap: Int) -> Int {
        switch container {
        // A list is scanned, comparing each element.
        case .list(let l): l.count + deepSize(element, cap: cap)
        // A set hashes the element's key; a map hashes a string.
        case .set, .map: deepSize(element, cap: cap)
        default: 0
        }
    }

    /// A method call, from its receiver and arguments.
    static func method(_ method: Method, _ receiver: Value, _ arguments: [Value], cap: Int) -> Int {
        switch method {
        case .size, .date, .year, .month, .day, .hours, .minutes, .seconds, .nanos, .dayOfWeek, .dayOfYear, .time, .toMillis,
             .distance, .latitude, .longitude, .addedKeys, .removedKeys, .changedKeys, .unchangedKeys, .affectedKeys:
            // A map_diff's key sets compare both maps' values again, at every depth.
            guard method != .size, case .mapDiff(let diff) = receiver else { return 0 }
            return deepSize(.map(diff.left), cap: cap) + deepSize(.map(diff.right), cap: cap)
        case .get:
            return arguments.first.map(size) ?? 0
        case .bind:
            return size(receiver) + (arguments.first.map(size) ?? 0)
        case .toSet, .keys, .values, .lower, .upper, .trim, .toUtf8, .toBase64, .toHexString, .matches, .split, .replace:
            return deepSize(receiver, cap: cap)
        case .join:
            return deepSize(receiver, cap: cap) + (arguments.first.map(size) ?? 0)
        case .hasAll, .hasAny, .hasOnly, .concat, .removeAll, .difference, .intersection, .union, .diff:
            return deepSize(receiver, cap: cap) + (arguments.first.map { deepSize($0, cap: cap) } ?? 0)
        }
    }

    /// A free function (`hashing.sha256(s)`, `string(x)`, …): the bytes or elements it reads.
    static func builtin(_ arguments: [Value], cap: Int) -> Int {
        arguments.reduce(0) { $0 + deepSize($1, cap: cap) - 1 }
    }
}

extension EvaluationContext {
    /// Charges `units` of work against the cost limit, before the work is done. A charge that
    /// does not fit is refused without being spent, so an operation too large for the budget
    /// fails at once and takes nothing from the operations after it.
    @inline(__always)
    mutating func charge(_ units: Int, _ span: SourceSpan) throws(EvaluationError) {
        guard units > 0 else { return }
        guard units <= limits.maxCost - cost else {
            throw EvaluationError(
                .limitExceeded, "Expression is too costly to evaluate: more than \(limits.maxCost) units of work (see the cost table).",
                span: span)
        }
        cost += units
    }

    /// The room left under the cost limit (what a size walk may measure before it stops).
    var remainingCost: Int { max(0, limits.maxCost - cost) }
}
