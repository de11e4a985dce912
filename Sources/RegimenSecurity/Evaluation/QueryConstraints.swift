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
            guard !options.isEmpty, branches.count * options.count <= maxCombinations else { return [] }
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

    /// One alternative of a disjunction: an `in` element (an equality) or an
    /// `array-contains-any` element (a contained value).
    private enum Alternative {
        case equal(Value)
        case contained(Value)
    }

    /// The field's value in each branch: a plain value under equality alone, else a constraint.
    /// As Firestore does, the query is expanded into a disjunction: every `in` and
    /// `array-contains-any` (a one-element one too) multiplies the branches by its values.
    private static func options(for filters: [QueryFilter], field: String) -> [(label: String?, value: Value)] {
        var alternatives: [(choices: [Alternative], label: [String])] = [([], [])]
        var base = QueryConstraint()
        var onlyEquality = true
        for filter in filters {
            let v = filter.value
            switch filter.op {
            case .equal:
                base.equal.append(v)
            case .in, .arrayContainsAny:
                if filter.op == .arrayContainsAny { onlyEquality = false }
                let values = v.listValue ?? []
                guard !values.isEmpty, alternatives.count * values.count <= maxCombinations else { return [] }
                alternatives = alternatives.flatMap { branch in
                    values.map { value in
                        filter.op == .in
                            ? (branch.choices + [.equal(value)], values.count > 1 ? branch.label + ["\(field) == \(value)"] : branch.label)
                            : (branch.choices + [.contained(value)], values.count > 1 ? branch.label + ["\(field) contains \(value)"] : branch.label)
                    }
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
            }
        }
        return alternatives.map { alternative in
            var constraint = base
            var plain = onlyEquality
            for choice in alternative.choices {
                switch choice {
                // An `in` of null leaves no plain value and proves no `== null` (an `==` null,
                // Firestore's IS_NULL, does); the emulator takes it to prove `!= null`,
                // `!= true` and `!= false`, and no other `!=` (its answers, asked in
                // scripts/emulator/list-query-proofs.md).
                case .equal(.null):
                    plain = false
                    constraint.excluded += [.null, .bool(true), .bool(false)]
                case .equal(let value): constraint.equal.append(value)
                case .contained(let value): constraint.contains.append(value)
                }
            }
            let label = alternative.label.isEmpty ? nil : alternative.label.joined(separator: ", ")
            // Equalities that disagree (`n == 1` and `n == 2`) make a constraint proving each.
            if plain, let value = constraint.equal.first, constraint.equal.allSatisfy({ $0 == value }) {
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
