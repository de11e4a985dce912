import OrderedCollections
import RegimenLanguage

/// Turns a list query's filters into the `resource` a list is checked against.
///
/// Rules are not filters: a query is allowed only if the rule holds for every document it could
/// return, whatever is stored. Firestore does not sample documents: it evaluates the rule with
/// `resource.data.f` standing for what the query says about `f`, and a comparison the query does
/// not prove is an error (deny). Here, as the emulator does it:
/// - a field whose filters are all `==` (or a one-element `in`) of one value has exactly that value;
/// - an `in` with several values splits the query into branches, one per value, each checked
///   separately (as Firestore checks each comparison value); so does `array-contains-any`, each
///   branch an `array-contains` of one value;
/// - any other filter on a field (ranges, `!=`, `not-in`, `array-contains(-any)`, or `==`
///   beside them) makes the field a ``QueryConstraint``, which proves comparisons or errs;
/// - a field without a filter is absent, so reading it is an error and denies. `orderBy` and
///   cursors constrain nothing.
/// The document id is unbound and `resource` is never null.
enum QueryConstraints {
    /// More branches than this deny: the query is too broad to check.
    static let maxCombinations = 4096

    static func branches(for query: ListQuery, collection: RequestPath) -> [PreparedRequest.Branch] {
        var byField = OrderedDictionary<String, [QueryFilter]>()
        for filter in query.filters { byField[filter.field, default: []].append(filter) }

        var branches: [(label: [String], data: OrderedDictionary<String, Value>)] = [([], [:])]
        for (field, filters) in byField {
            let options = options(for: filters, field: field)
            guard branches.count * max(1, options.count) <= maxCombinations else { return [] }
            let path = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...]
            branches = branches.flatMap { branch in
                options.map { option in
                    var data = branch.data
                    setField(&data, path, option.value)
                    return (branch.label + (option.label.map { [$0] } ?? []), data)
                }
            }
        }
        return branches.map { branch in
            PreparedRequest.Branch(
                label: branch.label.isEmpty ? nil : branch.label.joined(separator: ", "),
                // The document id is unbound in a list: `id` and `__name__` are not defined.
                resources: [.map(["data": .map(branch.data)])])
        }
    }

    /// The field's value in each branch: a plain value under equality alone, else a constraint.
    private static func options(for filters: [QueryFilter], field: String) -> [(label: String?, value: Value)] {
        // Each element of an `in` with several values is a branch of its own, and so is each of
        // an `array-contains-any`: (equality, contained element) per branch.
        var alternatives: [(equal: Value?, contained: Value?)] = [(nil, nil)]
        var labels: [String?] = [nil]
        if let inFilter = filters.first(where: { $0.op == .in }), let values = inFilter.value.listValue, values.count > 1 {
            alternatives = values.map { ($0, nil) }
            labels = values.map { "\(field) == \($0)" }
        } else if let any = filters.first(where: { $0.op == .arrayContainsAny }), let values = any.value.listValue, !values.isEmpty {
            alternatives = values.map { (nil, $0) }
            labels = values.map { "\(field) contains \($0)" }
        }
        var base = QueryConstraint()
        var onlyEquality = true
        for filter in filters {
            let v = filter.value
            switch filter.op {
            case .equal:
                base.equal.append(v)
            case .in:
                // A one-element `in` is an equality, except that `in [null]` beside other filters
                // proves nothing (an `==` null, Firestore's IS_NULL, does).
                if let values = v.listValue, values.count == 1 {
                    if !values[0].isNull || filters.allSatisfy({ $0.op == .in || $0.op == .equal }) { base.equal.append(values[0]) }
                } else if v.listValue == nil {
                    onlyEquality = false
                }
            case .notEqual:
                onlyEquality = false
                base.excluded.append(v)
            case .notIn:
                onlyEquality = false
                base.excluded += v.listValue ?? []
            case .less, .lessOrEqual:
                onlyEquality = false
                base.upper.append(.init(value: v, inclusive: filter.op == .lessOrEqual))
            case .greater, .greaterOrEqual:
                onlyEquality = false
                base.lower.append(.init(value: v, inclusive: filter.op == .greaterOrEqual))
            case .arrayContains:
                onlyEquality = false
                base.contains.append(v)
            case .arrayContainsAny:
                onlyEquality = false
            }
        }
        return zip(alternatives, labels).map { alternative, label in
            var constraint = base
            if let value = alternative.equal, !value.isNull || onlyEquality { constraint.equal.append(value) }
            if let value = alternative.contained { constraint.contains.append(value) }
            // Equalities that disagree (`n == 1` and `n == 2`) make a constraint proving each.
            if onlyEquality, let value = constraint.equal.first, constraint.equal.allSatisfy({ $0 == value }) {
                return (label, value)
            }
            for value in constraint.equal {
                constraint.lower.append(.init(value: value, inclusive: true))
                constraint.upper.append(.init(value: value, inclusive: true))
            }
            return (label, .constraint(constraint))
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
