import RegimenLanguage

/// Checks a tracker tree against a ``ValidationPolicy`` and reports every violation.
package struct TreeValidator: Sendable {
    package let policy: ValidationPolicy
    // Worked out once: every document of a level walks the same sorted field list.
    private let sortedFields: [TrackerLevel: [(name: String, rule: ValidationPolicy.FieldRule)]]
    private let metricFields: Set<String>
    private let usableByType: [String: Set<String>]

    package init(policy: ValidationPolicy) {
        self.policy = policy
        self.sortedFields = policy.levels.mapValues { rules in rules.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        self.metricFields = policy.metricFields
        self.usableByType = policy.setFieldsByExerciseType.mapValues { Set($0.required + $0.allowed) }
    }

    /// Every violation in `tree`, sorted by document path.
    package func validate(_ tree: TrackerTree) -> [TrackerViolation] {
        var violations: [TrackerViolation] = []
        for program in tree.programs {
            check(program, path: tree.rootPath, exerciseType: nil, into: &violations)
        }
        checkSiblings(tree.programs, parentPath: tree.rootPath, into: &violations)
        checkUserScope(tree, into: &violations)
        if tree.userId == nil, !tree.programs.isEmpty, policy.levels.values.contains(where: { $0.fields.values.contains(where: \.owner) }) {
            violations.append(TrackerViolation(path: "", field: "userId", .error,
                "the tree needs 'userId', the owner every document's 'userId' must name"))
        }
        return violations.sorted()
    }

    /// The violations of one document on its own, without its children: what the Firestore
    /// policy checks when the document's owner writes it (rules/security/workout-tracker/corrected.rules
    /// is the source; a generated test requires both to give the same verdict). Checks that need
    /// other documents (uniqueness, the set fields of the parent exercise's type) are not included.
    /// - Parameter path: the document's own path; its `userId` is the owner the `owner` fields must name.
    func documentViolations(_ document: TrackerDocument, at path: DocumentPath) -> [TrackerViolation] {
        var violations: [TrackerViolation] = []
        checkFields(document, at: path, into: &violations)
        return violations.sorted()
    }

    private func checkFields(_ document: TrackerDocument, at path: DocumentPath, into all: inout [TrackerViolation]) {
        var violations: [TrackerViolation] = []
        defer {
            for var violation in violations {
                violation.inOwnFields = true
                all.append(violation)
            }
        }
        let here = path.description
        let rules = policy.levels[document.level] ?? ValidationPolicy.LevelRules(fields: [:])
        for (name, rule) in sortedFields[document.level] ?? [] {
            if let value = document.fields[name] {
                if let message = Self.problem(with: value, named: name, rule: rule) {
                    violations.append(TrackerViolation(path: here, field: name, .error, message))
                } else if rule.owner, let owner = path.userId, value != .string(owner) {
                    violations.append(TrackerViolation(path: here, field: name, .error,
                        "'\(name)' must be the owner's id '\(owner)' (the user of the path), not \(Self.show(value))"))
                }
            } else if rule.required {
                violations.append(TrackerViolation(path: here, field: name, .error, "'\(name)' is required"))
            }
        }
        for name in document.fields.keys.sorted() where rules.fields[name] == nil {
            violations.append(TrackerViolation(path: here, field: name, .warning, "unknown field '\(name)' on a \(document.level.rawValue)"))
        }
        if !rules.atLeastOneOf.isEmpty,
           !rules.atLeastOneOf.contains(where: { document.fields[$0].map { !$0.isNull } ?? false }) {
            violations.append(TrackerViolation(path: here, .error,
                "a \(document.level.rawValue) needs at least one of \(rules.atLeastOneOf.joined(separator: ", "))"))
        }
    }

    private func check(_ document: TrackerDocument, path parent: DocumentPath, exerciseType: String?,
                       into violations: inout [TrackerViolation]) {
        let path = parent.appending(document.level, document.id)
        let here = path.description
        checkFields(document, at: path, into: &violations)
        if document.level == .set, let exerciseType, let setFields = policy.setFieldsByExerciseType[exerciseType] {
            checkSetFields(document, type: exerciseType, fields: setFields, path: here, into: &violations)
        }

        let childType: String?
        if document.level == .exercise, case .string(let type)? = document.fields["exerciseType"] {
            childType = type
        } else {
            childType = exerciseType
        }
        for child in document.children {
            check(child, path: path, exerciseType: childType, into: &violations)
        }
        checkSiblings(document.children, parentPath: path, into: &violations)
    }

    private func checkSetFields(_ set: TrackerDocument, type: String, fields: ValidationPolicy.SetFields,
                                path: String, into violations: inout [TrackerViolation]) {
        for name in fields.required where set.fields[name].map(\.isNull) ?? true {
            violations.append(TrackerViolation(path: path, field: name, .error, "a \(type) set needs '\(name)'"))
        }
        let usable = usableByType[type] ?? []
        for name in metricFields.subtracting(usable).sorted() {
            if let value = set.fields[name], !value.isNull {
                violations.append(TrackerViolation(path: path, field: name, .warning, "'\(name)' is not used by \(type) exercises"))
            }
        }
    }

    /// Duplicate ids and per-parent unique fields among one collection's documents.
    private func checkSiblings(_ documents: [TrackerDocument], parentPath: DocumentPath,
                               into violations: inout [TrackerViolation]) {
        var firstWithId: [String: String] = [:]
        for document in documents {
            let path = parentPath.appending(document.level, document.id).description
            if firstWithId[document.id] != nil {
                violations.append(TrackerViolation(path: path, field: "id", .error,
                    "id '\(document.id)' is used by another \(document.level.rawValue) in the same collection"))
            } else {
                firstWithId[document.id] = path
            }
        }
        guard let level = documents.first?.level, let rules = policy.levels[level] else { return }
        for unique in rules.unique where unique.scope == .parent || level == .program {
            checkUnique(documents.map { (parentPath.appending($0.level, $0.id), $0) }, rule: unique, into: &violations)
        }
    }

    /// Unique rules scoped to the user, for levels below programs.
    private func checkUserScope(_ tree: TrackerTree, into violations: inout [TrackerViolation]) {
        for level in TrackerLevel.allCases where level != .program {
            guard let rules = policy.levels[level] else { continue }
            let userRules = rules.unique.filter { $0.scope == .user }
            if userRules.isEmpty { continue }
            var documents: [(DocumentPath, TrackerDocument)] = []
            tree.forEach { document, path in
                if document.level == level { documents.append((path, document)) }
            }
            for rule in userRules { checkUnique(documents, rule: rule, into: &violations) }
        }
    }

    private func checkUnique(_ documents: [(DocumentPath, TrackerDocument)], rule: ValidationPolicy.UniqueRule,
                             into violations: inout [TrackerViolation]) {
        var owner: [Value: String] = [:]
        for (path, document) in documents {
            guard let value = document.fields[rule.field], !value.isNull else { continue }
            let key = Self.uniquenessKey(value, caseSensitive: rule.caseSensitive)
            if let first = owner[key] {
                violations.append(TrackerViolation(path: path.description, field: rule.field, .error,
                    "\(document.level.rawValue) \(rule.field) \(Self.show(value)) is already used by \(document.level.rawValue) \(first)"))
            } else {
                owner[key] = document.id
            }
        }
    }

    static func uniquenessKey(_ value: Value, caseSensitive: Bool) -> Value {
        switch value {
        case .string(let text):
            let trimmed = text.trimmingRulesWhitespace
            return .string(caseSensitive ? trimmed : trimmed.lowercased())
        case .float(let number) where NumberText.whole(number) != nil:
            return .number(number)
        default:
            return value
        }
    }

    /// The message for a field value that breaks `rule`, or `nil` when it is fine.
    static func problem(with value: Value, named name: String, rule: ValidationPolicy.FieldRule) -> String? {
        if value.isNull {
            return rule.nullable ? nil : "'\(name)' must not be null"
        }
        switch rule.type {
        case .string:
            guard case .string(let raw) = value else { return typeMessage(name, rule.type, value) }
            let text = rule.trim ? raw.trimmingRulesWhitespace : raw
            // Counted as the rules' `size()` counts: UTF-16 code units.
            let length = text.utf16.count
            if let minLength = rule.minLength, length < minLength {
                return minLength == 1 ? "'\(name)' must not be empty" : "'\(name)' must be at least \(minLength) characters, not \(length)"
            }
            if let maxLength = rule.maxLength, length > maxLength {
                return "'\(name)' must be at most \(maxLength) characters, not \(length)"
            }
            if let oneOf = rule.oneOf, !oneOf.contains(text) {
                return "'\(name)' must be one of \(oneOf.joined(separator: ", ")), not '\(text)'"
            }
            return nil
        case .int, .number:
            let number: Double
            switch (rule.type, value) {
            case (.int, .int(let i)), (.number, .int(let i)): number = Double(i)
            case (.number, .float(let f)) where f.isFinite: number = f
            case (.number, .float): return "'\(name)' must be a finite number, not \(value)"
            default: return typeMessage(name, rule.type, value)
            }
            if let min = rule.min, number < min {
                return "'\(name)' must be at least \(format(min)), not \(format(number))"
            }
            if let max = rule.max, number > max {
                return "'\(name)' must be at most \(format(max)), not \(format(number))"
            }
            return nil
        case .bool:
            return value.boolValue == nil ? typeMessage(name, rule.type, value) : nil
        case .timestamp:
            switch value {
            case .timestamp: return nil
            case .string(let text) where Timestamp(iso8601: text) != nil:
                return "'\(name)' must be a timestamp, not string; write {\"$timestamp\": \"\(text)\"}"
            case .string(let text): return "'\(name)' must be a timestamp, not string '\(text)'"
            default: return typeMessage(name, rule.type, value)
            }
        }
    }

    private static func typeMessage(_ name: String, _ type: ValidationPolicy.FieldType, _ value: Value) -> String {
        let article = type == .int ? "an" : "a"
        return "'\(name)' must be \(article) \(type.rawValue), not \(value.typeName)"
    }

    private static func show(_ value: Value) -> String {
        switch value {
        case .string(let text): "'\(text)'"
        case .int(let i): "\(i)"
        case .float(let f): format(f)
        default: value.typeName
        }
    }
}

/// A number without a trailing `.0` when it is whole: `7`, `2.5`.
func format(_ number: Double) -> String { humanNumber(number) }

extension String {
    /// The string without leading and trailing whitespace and newlines.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// The string without leading and trailing characters up to U+0020, as the rules' `trim()`
    /// (Java's `String.trim`) removes them, so names compare as the policy sees them.
    var trimmingRulesWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
              let last = scalars.lastIndex(where: { $0.value > 0x20 })
        else { return "" }
        return String(scalars[first...last])
    }
}
