import RegimenLanguage

extension DecisionTable {
    /// Combinations beyond this many are not enumerated (the check is skipped with a warning).
    static var coverageLimit: Int { 100_000 }

    /// Enumerates every combination of finite inputs and reports gaps, `unique` overlaps and
    /// rows `first` never reaches. Skipped when an input is unbounded or row expressions read
    /// extra variables (their values are only known at evaluation).
    func checkCoverage(at location: SourceLocation, in context: DecodingContext) {
        var domains: [[Value]] = []
        for input in inputs {
            guard let values = input.domain.finiteValues else { return }
            domains.append(values)
        }
        let readsExtras = rows.contains { row in
            if case .expression(let expression) = row.condition {
                return expression.referencedVariables.contains { extraVariables.contains($0) }
            }
            return false
        }
        guard !readsExtras else { return }
        let total = domains.reduce(1) { $0.multipliedReportingOverflow(by: $1.count).overflow ? Int.max : $0 * $1.count }
        guard total <= Self.coverageLimit else {
            context.warning("rules.coverage-skipped", "table '\(name)': coverage not checked: its inputs have \(total) combinations", at: location)
            return
        }
        let placeholders = [Value](repeating: .null, count: extraVariables.count)
        var gaps: [String] = []
        var gapCount = 0
        var overlaps: [Int: (earlier: Int, example: String)] = [:]
        var reached = Set<Int>()
        var failures: [Int: (example: String, message: String)] = [:]
        var combination = [Int](repeating: 0, count: domains.count)
        for _ in 0..<total {
            let slots = zip(domains, combination).map { $0[$1] } + placeholders
            var matching: [Int] = []
            for (index, row) in rows.enumerated() {
                switch row.condition.evaluate(slots) {
                case .success(true): matching.append(index)
                case .success(false): break
                case .failure(let error): if failures[index] == nil { failures[index] = (describe(slots), error.message) }
                }
            }
            if matching.isEmpty {
                gapCount += 1
                if gaps.count < 3 { gaps.append(describe(slots)) }
            } else if hitPolicy == .first {
                reached.insert(matching[0])
            } else {
                reached.formUnion(matching)
                for later in matching.dropFirst() where overlaps[later] == nil {
                    overlaps[later] = (matching[0], describe(slots))
                }
            }
            // Next combination, last input fastest.
            var position = domains.count - 1
            while position >= 0 {
                combination[position] += 1
                if combination[position] < domains[position].count { break }
                combination[position] = 0
                position -= 1
            }
        }
        if gapCount > 0 {
            let more = gapCount > gaps.count ? " and \(gapCount - gaps.count) more" : ""
            context.error("rules.table-gap", "table '\(name)': no row covers \(gaps.joined(separator: "; "))\(more)", at: location)
        }
        for (later, overlap) in overlaps.sorted(by: { $0.key < $1.key }) {
            context.error(
                "rules.table-overlap",
                "table '\(name)': \(rows[overlap.earlier].label) and \(rows[later].label) both match \(overlap.example) (hit policy 'unique')",
                at: rows[later].location, notes: ["\(rows[overlap.earlier].label) is at \(rows[overlap.earlier].location)"])
        }
        for (index, failure) in failures.sorted(by: { $0.key < $1.key }) {
            context.error("rules.table-condition", "table '\(name)': \(rows[index].label) cannot be evaluated for \(failure.example): \(failure.message)", at: rows[index].location)
        }
        if hitPolicy == .first {
            for (index, row) in rows.enumerated() where !reached.contains(index) && failures[index] == nil {
                context.warning("rules.table-unreachable", "table '\(name)': \(row.label) is never used: earlier rows match every input it matches", at: row.location)
            }
        }
    }
}
