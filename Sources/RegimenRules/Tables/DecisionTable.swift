package import RegimenLanguage

/// Which row of a decision table wins.
package enum HitPolicy: String, Sendable, Hashable, NodeEnum {
    /// The first matching row, in file order.
    case first
    /// Exactly one row may match; two matching rows are an error (at load time when the inputs
    /// are finite, at evaluation otherwise).
    case unique
}

/// A table of rows, each with `when:` conditions and a `then:` output, and an explicit hit policy.
///
/// ```yaml
/// split_by_days:
///   hit_policy: unique
///   inputs:
///     days: 1-7
///   rows:
///     - when: { days: 1 }
///       then: { split: full_body }
///     - when: { days: 2-3 }
///       then: { split: upper_lower }
///     - when: "days >= 4"
///       then: { split: push_pull_legs }
/// ```
/// A row's `when:` is a mapping of input columns to values, lists, ranges or comparisons (all
/// must hold; an empty mapping or a missing `when:` always holds), or an expression over the
/// inputs. When every input has a finite domain the loader checks every combination: an input
/// no row covers is an error, as are two rows matching under `unique`; a row that `first` can
/// never reach is a warning.
package struct DecisionTable<Output: Sendable>: Sendable {
    /// The table's name, as messages use it.
    package let name: String
    let hitPolicy: HitPolicy
    package let inputs: [TableInput]
    /// Variables beyond the inputs that row expressions may read (given at evaluation).
    let extraVariables: [String]
    package let rows: [DecisionRow<Output>]
    /// Where the table starts in its file.
    package let location: SourceLocation

    /// Why a table gave no single answer.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// The winning row for the inputs given by name (and any extra variables).
    /// - Throws: ``Failure`` when no row matches, when two match under `unique`, when an input
    ///   is missing, or when a row's condition fails or does not give true or false.
    package func evaluate(_ values: [String: Value]) throws(Failure) -> DecisionRow<Output> {
        var slots: [Value] = []
        slots.reserveCapacity(inputs.count + extraVariables.count)
        for name in inputs.map(\.name) + extraVariables {
            guard let value = values[name] else { throw Failure(message: "table '\(self.name)': no value for input '\(name)'") }
            slots.append(value)
        }
        return try evaluate(slots: slots)
    }

    /// The fast path: values for ``inputs`` then ``extraVariables``, in order.
    package func evaluate(slots: [Value]) throws(Failure) -> DecisionRow<Output> {
        guard slots.count >= inputs.count + extraVariables.count else {
            throw Failure(message: "table '\(name)': expected \(inputs.count + extraVariables.count) values, got \(slots.count)")
        }
        var winner: Int?
        for (index, row) in rows.enumerated() {
            // A condition that fails is no answer for this input. Security rules may treat a
            // failing condition as a non-match because denial is their safe default; a table has
            // none, and going on to a later row would apply a rule the coach did not write for
            // this input.
            switch row.condition.evaluate(slots) {
            case .success(true): break
            case .success(false): continue
            case .failure(let error):
                throw Failure(message: "table '\(name)': \(row.label) cannot be evaluated for \(describe(slots)): \(error.message)")
            }
            guard hitPolicy == .unique else { return row }
            if let winner {
                throw Failure(message: "table '\(name)': \(RowAddress.inTable(index: winner)) and \(RowAddress.inTable(index: index)) both match \(describe(slots))")
            }
            winner = index
        }
        guard let winner else { throw Failure(message: "table '\(name)': no row matches \(describe(slots))") }
        return rows[winner]
    }

    func describe(_ slots: [Value]) -> String {
        zip(inputs, slots).map { "\($0.name) = \($1)" }.joined(separator: ", ")
    }
}

/// One row of a ``DecisionTable``.
package struct DecisionRow<Output: Sendable>: Sendable {
    /// The row's `id:` if it has one (explanations name it), else `nil`.
    package let id: String?
    /// 1-based position in the table.
    package let number: Int
    package let output: Output
    /// Where the row starts in its file.
    package let location: SourceLocation
    /// The row's `when:` as written (an expression's text), for explanations.
    package let whenText: String
    let condition: RowCondition

    /// `row 'id'` or `rows[2]` (zero-based, ``RowAddress``), as explanations and messages name it.
    var label: String { id.map { "row '\($0)'" } ?? RowAddress.inTable(index: number - 1) }
}

/// A row's `when:`.
enum RowCondition: Sendable {
    case always
    case columns([(input: Int, matcher: ColumnMatcher)])
    case expression(CompiledExpression)

    /// Whether the row matches, or the evaluation error of an expression that fails or does not
    /// give true or false.
    func evaluate(_ slots: [Value]) -> Result<Bool, EvaluationError> {
        switch self {
        case .always: .success(true)
        case .columns(let columns): .success(columns.allSatisfy { $0.matcher.matches(slots[$0.input]) })
        case .expression(let expression): expression.evaluateCondition(slots: slots)
        }
    }
}
