import OrderedCollections
import RegimenLanguage

/// Turns a list query's constraints into the `resource` values a list is checked against.
///
/// Rules are not filters: a query is allowed only if the rule holds for every document it could
/// return, whatever is stored. Firestore evaluates `resource.data.f` as the query's constraint
/// on `f`. Here:
/// - a field with an equality constraint has exactly that value;
/// - `in` and `array-contains-any` split the query into branches, one per value, each checked
///   separately (as Firestore checks each comparison value);
/// - a field with range or `!=` constraints takes several sample values inside the allowed
///   range (both ends, just inside them, and far away); the rule must hold for every sample;
/// - a field without a constraint is absent, so reading it is an error and denies.
/// The document id is unbound and `resource` is never null.
enum QueryConstraints {
    /// More branches or samples than this deny: the query is too broad to check.
    static let maxCombinations = 4096

    static func branches(for query: ListQuery, collection: RequestPath) -> [PreparedRequest.Branch] {
        var byField = OrderedDictionary<String, [QueryFilter]>()
        for filter in query.filters { byField[filter.field, default: []].append(filter) }

        // Per field: the branch alternatives (from `in`-like filters) and, within each, samples.
        var branchChoices: [(field: String, options: [(label: String, values: [Value])])] = []
        for (field, filters) in byField {
            branchChoices.append((field, options(for: filters, field: field)))
        }
        var branches: [(label: [String], data: [OrderedDictionary<String, Value>])] = [([], [[:]])]
        for choice in branchChoices {
            var next: [(label: [String], data: [OrderedDictionary<String, Value>])] = []
            for branch in branches {
                for option in choice.options {
                    var samples: [OrderedDictionary<String, Value>] = []
                    for data in branch.data {
                        for value in option.values {
                            var copy = data
                            setField(&copy, choice.field.split(separator: ".").map(String.init)[...], value)
                            samples.append(copy)
                        }
                    }
                    next.append((branch.label + (option.label.isEmpty ? [] : [option.label]), samples))
                }
            }
            branches = next
            if branches.count * (branches.first?.data.count ?? 1) > maxCombinations { return [] }
        }
        return branches.map { branch in
            PreparedRequest.Branch(
                label: branch.label.isEmpty ? nil : branch.label.joined(separator: ", "),
                resources: branch.data.map { data in
                    // The document id is unbound in a list: `id` and `__name__` are not defined.
                    .map(["data": .map(data)])
                })
        }
    }

    private static func options(for filters: [QueryFilter], field: String) -> [(label: String, values: [Value])] {
        if let equal = filters.first(where: { $0.op == .equal }) {
            return [("", [equal.value])]
        }
        if let inFilter = filters.first(where: { $0.op == .in }) {
            return (inFilter.value.listValue ?? []).map { ("\(field) == \($0)", [$0]) }
        }
        if let any = filters.first(where: { $0.op == .arrayContainsAny }) {
            return (any.value.listValue ?? []).map { ("\(field) contains \($0)", [.list([$0])]) }
        }
        if let contains = filters.first(where: { $0.op == .arrayContains }) {
            return [("", [.list([contains.value])])]
        }
        return [("", samples(for: filters))]
    }

    /// Sample values satisfying every range / inequality filter on one field.
    private static func samples(for filters: [QueryFilter]) -> [Value] {
        var candidates: [Value] = []
        for filter in filters {
            let v = filter.value
            candidates.append(v)
            switch v {
            case .int(let i):
                for delta: Int64 in [-1, 1, -1_000_000_000, 1_000_000_000] {
                    let (sum, overflow) = i.addingReportingOverflow(delta)
                    if !overflow { candidates.append(.int(sum)) }
                }
                candidates.append(.float(Double(i) + 0.5))
                candidates.append(.float(Double(i) - 0.5))
            case .float(let d):
                candidates += [.float(d.nextUp), .float(d.nextDown), .float(d + 1), .float(d - 1), .float(d + 1e9), .float(d - 1e9)]
            case .string(let s):
                candidates += [.string(s + "\u{0}"), .string(s + "zzzz"), .string(""), .string(String(s.dropLast())), .string("\u{10FFFF}")]
            case .timestamp(let t):
                candidates += [
                    .timestamp(Timestamp(seconds: t.seconds + 1, nanos: t.nanos)),
                    .timestamp(Timestamp(seconds: t.seconds - 1, nanos: t.nanos)),
                    .timestamp(Timestamp(seconds: t.seconds + 86_400 * 3650, nanos: t.nanos)),
                    .timestamp(Timestamp(seconds: t.seconds - 86_400 * 3650, nanos: t.nanos)),
                ]
            case .bool(let b):
                candidates.append(.bool(!b))
            case .list(let items):
                candidates.append(contentsOf: items)
            default:
                break
            }
        }
        var seen = Set<Value>()
        let inside = candidates.filter { value in filters.allSatisfy { satisfies(value, $0) } && seen.insert(value).inserted }
        // Constraints no value satisfies (`checked < false`) still have to be checked against the
        // rule: the caller may not be allowed to list at all. The constraint's own values stand
        // in for the (empty) range, as the emulator decides such queries by the rule alone.
        if inside.isEmpty {
            var unique = Set<Value>()
            return filters.map(\.value).filter { unique.insert($0).inserted }
        }
        return inside
    }

    private static func satisfies(_ value: Value, _ filter: QueryFilter) -> Bool {
        switch filter.op {
        case .equal: return value.languageEquals(filter.value)
        case .notEqual: return sameKind(value, filter.value) && !value.languageEquals(filter.value)
        case .notIn: return !(filter.value.listValue ?? []).contains { $0.languageEquals(value) }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = compare(value, filter.value) else { return false }
            switch filter.op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .in, .arrayContains, .arrayContainsAny: return true
        }
    }

    /// Range filters only match values of the same type (numbers compare across int/float).
    private static func sameKind(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int, .int), (.int, .float), (.float, .int), (.float, .float), (.string, .string), (.bool, .bool),
             (.timestamp, .timestamp), (.null, .null):
            true
        default:
            false
        }
    }

    private static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case let (x, y) where x.numberValue != nil && y.numberValue != nil:
            guard let l = x.numberValue, let r = y.numberValue else { return nil }
            if case .int(let li) = x, case .int(let ri) = y { return li < ri ? -1 : li > ri ? 1 : 0 }
            return l < r ? -1 : l > r ? 1 : 0
        case let (.string(l), .string(r)):
            return l.unicodeScalars.lexicographicallyPrecedes(r.unicodeScalars) ? -1 : l == r ? 0 : 1
        case let (.timestamp(l), .timestamp(r)):
            return l < r ? -1 : l == r ? 0 : 1
        default:
            return nil
        }
    }

    private static func setField(_ map: inout OrderedDictionary<String, Value>, _ parts: ArraySlice<String>, _ value: Value) {
        guard let head = parts.first else { return }
        if parts.count == 1 {
            map[head] = value
            return
        }
        var nested = map[head]?.mapValue ?? [:]
        setField(&nested, parts.dropFirst(), value)
        map[head] = .map(nested)
    }
}
