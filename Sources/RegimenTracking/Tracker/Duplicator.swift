package import RegimenLanguage

/// A `set` write of one new document, as a batched write would send it.
package struct WriteOperation: Sendable, Hashable {
    /// The new document's path.
    package var path: String
    /// The document's fields.
    package var data: [String: Value]

    /// `{path, data}` with the data's keys sorted.
    package var value: Value {
        Value.orderedMap([("path", .string(path)), ("data", Value.orderedMap(data.sorted { $0.key < $1.key }).encodingTaggedTimestamps)])
    }
}

/// The audit entry every duplication leaves: user, source id, new id, time
/// (docs/requirements.md#duplication).
package struct DuplicationAudit: Sendable, Hashable {
    var userId: String?
    package var level: TrackerLevel
    var sourceId: String
    var newId: String
    package var time: Timestamp
    package var documents: Int
    package var batches: Int

    /// The entry as a map, with the seed's key names (`sourceWeekId`, `newWeekId`).
    package var value: Value {
        Value.orderedMap([
            ("event", .string("duplicate")),
            ("userId", userId.map(Value.string) ?? .null),
            ("level", .string(level.rawValue)),
            ("source\(level.capitalized)Id", .string(sourceId)),
            ("new\(level.capitalized)Id", .string(newId)),
            ("timestamp", .timestamp(time)),
            ("documents", .int(Int64(documents))),
            ("batches", .int(Int64(batches))),
        ])
    }
}

/// What a duplication produced.
public struct DuplicationResult: Sendable {
    /// The tree with the copy added under the source's parent.
    public var tree: TrackerTree
    /// The copied subtree.
    public var copy: TrackerDocument
    /// Old id → new id for every copied document, parent-first.
    public var idMap: [(old: String, new: String)]
    /// The writes, parent-first, in batches of at most the policy's maximum.
    package var batches: [[WriteOperation]]
    package var audit: DuplicationAudit
    /// Each change `repair` made to the source's fields in the copy, `path: what changed`.
    public var repairs: [String]
}

/// Why a duplication was refused; `code` uses the seed's callable-function codes.
package struct DuplicationError: DiagnosticError, Hashable {
    package enum Code: String, Sendable, Hashable {
        case notFound = "not-found"
        case permissionDenied = "permission-denied"
        case invalidArgument = "invalid-argument"
        case failedPrecondition = "failed-precondition"
    }

    package var code: Code
    package var message: String
    /// The input the problem is about (`user`, or the level whose id was not found), if one.
    package var field: String?

    init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The message alone: the callable-function code is for the seed's contract (``code``), not
    /// for people, and a service error says it with its status.
    package var description: String { message }

    /// A missing or ambiguous source is the caller's; a refusal by the policy or the validation
    /// rules is the rules' verdict.
    package var kind: ErrorKind {
        switch code {
        case .notFound, .invalidArgument: .input
        case .permissionDenied, .failedPrecondition: .rules
        }
    }

    /// The problem in HTTP words, not the callable-function codes (those stay in ``code`` and the
    /// CLI's text): the service answers `duplicate.not-found` with 404, `duplicate.forbidden` with
    /// 403, and the other two with 422. `field` names what the problem is about.
    package var diagnostics: [Diagnostic] {
        let id = switch code {
        case .notFound: "duplicate.not-found"
        case .permissionDenied: "duplicate.forbidden"
        case .invalidArgument: "duplicate.invalid-source"
        case .failedPrecondition: "duplicate.invalid-tree"
        }
        return [Diagnostic(.error, id: id, message, at: nil, field: field)]
    }
}

/// Deep-copies a program, week, workout or exercise under the same parent
/// (docs/requirements.md#duplication).
///
/// With a ``ValidationPolicy`` a duplication never writes what validation rejects: the source is
/// validated first (its errors refuse the copy, each listed, unless `repair` drops the offending
/// optional fields from the copy and says so), values the policy wants unique (program names) get
/// the `when_taken` form (`… (copy 2)`), and the new tree is validated before any write is returned.
package struct Duplicator: Sendable {
    package let policy: CopyPolicy
    package let validation: ValidationPolicy?

    package init(policy: CopyPolicy, validation: ValidationPolicy? = nil) {
        self.policy = policy
        self.validation = validation
    }

    /// Duplicates the document of `level` with id `sourceId`.
    ///
    /// - Parameters:
    ///   - requestingUser: the signed-in user; the tree must be theirs (users duplicate only their
    ///     own data). `nil` skips the check (a trusted, offline caller).
    ///   - now: the time stamped on the copies and the audit entry.
    ///   - seed: seeds the new ids; by default derived from the source id and `now`, so the same
    ///     request gives the same ids.
    ///   - repair: copy a source with errors by leaving each invalid optional field out of the copy
    ///     (and writing the owner's id), listing every change in ``DuplicationResult/repairs``.
    package func duplicate(_ level: TrackerLevel, id sourceId: String, in tree: TrackerTree,
                          requestingUser: String?, now: Timestamp, seed: UInt64? = nil, repair: Bool = false) throws -> DuplicationResult {
        guard level != .set else {
            throw DuplicationError(.invalidArgument, "sets are copied with their exercise; duplicate a week, workout or exercise", field: level.rawValue)
        }
        if let requestingUser, tree.userId != requestingUser {
            throw DuplicationError(.permissionDenied, "user '\(requestingUser)' may only duplicate their own documents", field: "user")
        }
        var matches: [DocumentPath] = []
        var taken: Set<String> = []
        tree.forEach { document, path in
            taken.insert(document.id)
            if document.level == level, document.id == sourceId { matches.append(path) }
        }
        guard let sourcePath = matches.first else {
            throw DuplicationError(.notFound, "no \(level.rawValue) with id '\(sourceId)'", field: level.rawValue)
        }
        guard matches.count == 1 else {
            let places = matches.map(\.description).joined(separator: ", ")
            throw DuplicationError(.invalidArgument, "\(level.rawValue) id '\(sourceId)' is ambiguous: \(places)", field: level.rawValue)
        }

        let owner = requestingUser ?? tree.userId
        let (drops, repairs) = try checkSource(tree, sourcePath: sourcePath, owner: owner, repair: repair)
        var generator = IdentifierGenerator(seed: seed ?? IdentifierGenerator.seed(from: "\(sourcePath)@\(now)"), taken: taken)
        var programs = tree.programs
        var outcome: (copy: TrackerDocument, idMap: [(old: String, new: String)], operations: [WriteOperation])?
        let context = CopyContext(now: now, owner: owner, drops: drops, tree: tree)
        try Self.edit(&programs, along: sourcePath.segments[...], parentPath: tree.rootPath, exerciseType: nil) { siblings, index, parentPath, exerciseType in
            outcome = try copyRoot(of: siblings, at: index, parentPath: parentPath, exerciseType: exerciseType,
                                   context: context, generator: &generator)
            if let copy = outcome?.copy { siblings.append(copy) }
        }
        guard let outcome else {
            throw DuplicationError(.notFound, "no \(level.rawValue) with id '\(sourceId)'", field: level.rawValue)
        }
        let batchSize = max(1, policy.maxOperationsPerBatch)
        let batches = stride(from: 0, to: outcome.operations.count, by: batchSize).map {
            Array(outcome.operations[$0..<min($0 + batchSize, outcome.operations.count)])
        }
        let audit = DuplicationAudit(userId: owner, level: level, sourceId: sourceId, newId: outcome.copy.id,
                                     time: now, documents: outcome.operations.count, batches: batches.count)
        let newTree = TrackerTree(userId: tree.userId, programs: programs)
        if let validation {
            let copyPath = sourcePath.segments.dropLast().reduce(tree.rootPath) { $0.appending($1.level, $1.id) }
                .appending(level, outcome.copy.id).description
            let errors = TreeValidator(policy: validation).validate(newTree)
                .filter { $0.severity == .error && Self.isWithin($0.path, copyPath) }
            if !errors.isEmpty {
                throw DuplicationError(.failedPrecondition, "the copy would break the tracker rules, nothing was written:\n"
                    + errors.map { "  \($0.path): \($0.message)" }.joined(separator: "\n"))
            }
        }
        return DuplicationResult(tree: newTree, copy: outcome.copy, idMap: outcome.idMap, batches: batches, audit: audit, repairs: repairs)
    }

    /// What a copy needs beyond the source: the time, the owner, and the fields `repair` leaves out.
    private struct CopyContext {
        var now: Timestamp
        var owner: String?
        /// Source document path → fields left out of its copy.
        var drops: [String: Set<String>]
        var tree: TrackerTree
    }

    private static func isWithin(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root + "/")
    }

    /// Validates the source subtree: its errors refuse the copy, or with `repair` become fields
    /// left out of the copy. Returns the fields to leave out per source path and the changes made.
    private func checkSource(_ tree: TrackerTree, sourcePath: DocumentPath, owner: String?, repair: Bool)
        throws -> (drops: [String: Set<String>], repairs: [String]) {
        guard let validation else { return ([:], []) }
        let root = sourcePath.description
        let errors = TreeValidator(policy: validation).validate(tree)
            .filter { $0.severity == .error && Self.isWithin($0.path, root) }
        guard !errors.isEmpty else { return ([:], []) }
        let listed = errors.map { "  \($0.path): \($0.message)" }.joined(separator: "\n")
        guard repair else {
            throw DuplicationError(.failedPrecondition,
                "the source has \(errors.count) error\(errors.count == 1 ? "" : "s"); fix them or copy with repair, which leaves invalid optional fields out:\n\(listed)")
        }
        var drops: [String: Set<String>] = [:]
        var repairs: [String] = []
        var unrepairable: [TrackerViolation] = []
        var levelOf: [String: (TrackerLevel, [String: Value])] = [:]
        tree.forEach { document, path in
            if Self.isWithin(path.description, root) { levelOf[path.description] = (document.level, document.fields) }
        }
        for error in errors {
            guard let field = error.field, let (level, fields) = levelOf[error.path],
                  let rule = validation.levels[level]?.fields[field] else {
                unrepairable.append(error)
                continue
            }
            let shown = fields[field].map { $0.jsonString() } ?? "absent"
            if rule.owner, let owner {
                repairs.append("\(error.path): '\(field)' \(shown) → '\(owner)' (\(error.message))")
            } else if !rule.required {
                drops[error.path, default: []].insert(field)
                repairs.append("\(error.path): left out '\(field)' \(shown) (\(error.message))")
            } else {
                unrepairable.append(error)
            }
        }
        if !unrepairable.isEmpty {
            throw DuplicationError(.failedPrecondition, "repair cannot fix \(unrepairable.count) error\(unrepairable.count == 1 ? "" : "s") of the source:\n"
                + unrepairable.map { "  \($0.path): \($0.message)" }.joined(separator: "\n"))
        }
        return (drops, repairs)
    }

    /// Walks down `segments` and calls `body` with the source's sibling list and index.
    private static func edit(_ documents: inout [TrackerDocument], along segments: ArraySlice<(level: TrackerLevel, id: String)>,
                             parentPath: DocumentPath, exerciseType: String?,
                             _ body: (inout [TrackerDocument], Int, DocumentPath, String?) throws -> Void) throws {
        guard let segment = segments.first,
              let index = documents.firstIndex(where: { $0.id == segment.id && $0.level == segment.level })
        else { return }
        if segments.count == 1 {
            try body(&documents, index, parentPath, exerciseType)
            return
        }
        let document = documents[index]
        var type = exerciseType
        if document.level == .exercise, case .string(let value)? = document.fields["exerciseType"] { type = value }
        try edit(&documents[index].children, along: segments.dropFirst(),
                 parentPath: parentPath.appending(document.level, document.id), exerciseType: type, body)
    }

    private func copyRoot(of siblings: [TrackerDocument], at index: Int, parentPath: DocumentPath, exerciseType: String?,
                          context: CopyContext, generator: inout IdentifierGenerator)
        throws -> (copy: TrackerDocument, idMap: [(old: String, new: String)], operations: [WriteOperation]) {
        let source = siblings[index]
        var idMap: [(old: String, new: String)] = []
        var operations: [WriteOperation] = []
        var problems: [String] = []
        var copy = copySubtree(source, sourceParent: parentPath, parentPath: parentPath, exerciseType: exerciseType, context: context,
                               generator: &generator, idMap: &idMap, operations: &operations, problems: &problems)
        if !problems.isEmpty {
            throw DuplicationError(.failedPrecondition, problems.joined(separator: "; "))
        }
        if let rule = policy.levels[source.level] {
            var sourceFields = source.fields
            sourceFields["id"] = .string(source.id)
            for name in rule.whenDuplicated.keys.sorted() {
                guard let formula = rule.whenDuplicated[name] else { continue }
                let variables: [String: Value] = [
                    TrackerDuplicationVariables.source.name: Value.orderedMap(sourceFields.sorted { $0.key < $1.key }),
                    TrackerDuplicationVariables.maxSiblingValue.name: Self.maxValue(of: name, in: siblings),
                ]
                let value: Value
                do { value = try formula.evaluate(variables) } catch {
                    throw DuplicationError(.failedPrecondition, "computing '\(name)' of the copy with '\(formula.source)' failed: \(error)")
                }
                copy.fields[name] = value
                if let first = operations.indices.first { operations[first].data[name] = value }
            }
            for unique in validation?.levels[source.level]?.unique ?? [] {
                guard let value = try freeValue(of: unique, for: copy, source: sourceFields, siblings: siblings,
                                                rule: rule, tree: context.tree) else { continue }
                copy.fields[unique.field] = value
                if let first = operations.indices.first { operations[first].data[unique.field] = value }
            }
        }
        return (copy, idMap, operations)
    }

    /// A value for the copy's `unique.field` that no other document in the rule's scope uses:
    /// the copy's own when free, else the level's `when_taken` formula with n = 2, 3, …;
    /// `nil` when the copy's value is already free.
    private func freeValue(of unique: ValidationPolicy.UniqueRule, for copy: TrackerDocument, source: [String: Value],
                           siblings: [TrackerDocument], rule: CopyPolicy.LevelCopy, tree: TrackerTree) throws -> Value? {
        guard let value = copy.fields[unique.field], !value.isNull else { return nil }
        var used: Set<Value> = []
        if unique.scope == .parent || copy.level == .program {
            for sibling in siblings { if let v = sibling.fields[unique.field] { used.insert(TreeValidator.uniquenessKey(v, caseSensitive: unique.caseSensitive)) } }
        }
        if unique.scope == .user {
            tree.forEach { document, _ in
                if document.level == copy.level, let v = document.fields[unique.field] {
                    used.insert(TreeValidator.uniquenessKey(v, caseSensitive: unique.caseSensitive))
                }
            }
        }
        if !used.contains(TreeValidator.uniquenessKey(value, caseSensitive: unique.caseSensitive)) { return nil }
        guard let formula = rule.whenTaken[unique.field] else {
            throw DuplicationError(.failedPrecondition, "the copy's \(unique.field) \(value.jsonString()) is taken and the duplication rules have no 'when_taken' for it")
        }
        let sourceMap = Value.orderedMap(source.sorted { $0.key < $1.key })
        // Each try is a new value; more tries than used values cannot all collide.
        for n in 2...(used.count + 2) {
            let candidate: Value
            do { candidate = try formula.evaluate([TrackerDuplicationVariables.source.name: sourceMap, TrackerDuplicationVariables.n.name: .int(Int64(n))]) } catch {
                throw DuplicationError(.failedPrecondition, "computing '\(unique.field)' of the copy with '\(formula.source)' failed: \(error)")
            }
            if !used.contains(TreeValidator.uniquenessKey(candidate, caseSensitive: unique.caseSensitive)) { return candidate }
        }
        throw DuplicationError(.failedPrecondition, "'when_taken' of '\(unique.field)' gives no free value; it must change with n")
    }

    private func copySubtree(_ source: TrackerDocument, sourceParent: DocumentPath, parentPath: DocumentPath, exerciseType: String?,
                             context: CopyContext, generator: inout IdentifierGenerator, idMap: inout [(old: String, new: String)],
                             operations: inout [WriteOperation], problems: inout [String]) -> TrackerDocument {
        let newId = generator.next()
        let sourcePath = sourceParent.appending(source.level, source.id)
        let path = parentPath.appending(source.level, newId)
        idMap.append((source.id, newId))
        var type = exerciseType
        if source.level == .exercise, case .string(let value)? = source.fields["exerciseType"] { type = value }
        var fields = policy.copiedFields(of: source, exerciseType: exerciseType, now: context.now)
        for name in context.drops[sourcePath.description] ?? [] { fields?[name] = nil }
        if let ownerField = policy.ownerField, let owner = context.owner { fields?[ownerField] = .string(owner) }
        if fields == nil {
            if source.level == .set {
                problems.append("no copy rule for sets of exercise type '\(exerciseType ?? "none")' (set \(source.id))")
            } else {
                problems.append("no copy rule for \(source.level.rawValue) documents")
            }
        }
        let copiedFields = fields ?? [:]
        operations.append(WriteOperation(path: path.description, data: copiedFields))
        var copy = TrackerDocument(level: source.level, id: newId, fields: copiedFields)
        copy.children.reserveCapacity(source.children.count)
        for child in source.children {
            copy.children.append(copySubtree(child, sourceParent: sourcePath, parentPath: path, exerciseType: type, context: context,
                                             generator: &generator, idMap: &idMap, operations: &operations, problems: &problems))
        }
        return copy
    }

    /// The highest numeric value of `field` among `documents`, `null` when none is a number.
    private static func maxValue(of field: String, in documents: [TrackerDocument]) -> Value {
        var best: Value = .null
        var bestNumber = -Double.infinity
        for document in documents {
            guard let value = document.fields[field], let number = value.numberValue, number > bestNumber else { continue }
            best = value
            bestNumber = number
        }
        return best
    }
}
