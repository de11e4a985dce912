import RegimenLanguage

/// A `set` write of one new document, as a batched write would send it.
public struct WriteOperation: Sendable, Hashable {
    /// The new document's path.
    public var path: String
    /// The document's fields.
    public var data: [String: Value]

    public init(path: String, data: [String: Value]) {
        self.path = path
        self.data = data
    }

    /// `{path, data}` with the data's keys sorted.
    public var value: Value {
        Value.orderedMap([("path", .string(path)), ("data", Value.orderedMap(data.sorted { $0.key < $1.key }).encodingTaggedTimestamps)])
    }
}

/// The audit entry of one duplication (seed 10.3: userId, source id, new id, time).
public struct DuplicationAudit: Sendable, Hashable {
    public var userId: String?
    public var level: TrackerLevel
    public var sourceId: String
    public var newId: String
    public var time: Timestamp
    public var documents: Int
    public var batches: Int

    /// The entry as a map, with the seed's key names (`sourceWeekId`, `newWeekId`).
    public var value: Value {
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
    public var batches: [[WriteOperation]]
    public var audit: DuplicationAudit
}

/// Why a duplication was refused; `code` uses the seed's callable-function codes.
public struct DuplicationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case notFound = "not-found"
        case permissionDenied = "permission-denied"
        case invalidArgument = "invalid-argument"
        case failedPrecondition = "failed-precondition"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// Deep-copies a program, week, workout or exercise under the same parent (seed 000, section 10).
public struct Duplicator: Sendable {
    public let policy: CopyPolicy

    public init(policy: CopyPolicy) { self.policy = policy }

    /// Duplicates the document of `level` with id `sourceId`.
    ///
    /// - Parameters:
    ///   - requestingUser: the signed-in user; the tree must be theirs (seed 10.1: "per-user
    ///     self-duplication only"). `nil` skips the check (a trusted, offline caller).
    ///   - now: the time stamped on the copies and the audit entry.
    ///   - seed: seeds the new ids; by default derived from the source id and `now`, so the same
    ///     request gives the same ids.
    public func duplicate(_ level: TrackerLevel, id sourceId: String, in tree: TrackerTree,
                          requestingUser: String?, now: Timestamp, seed: UInt64? = nil) throws -> DuplicationResult {
        guard level != .set else {
            throw DuplicationError(.invalidArgument, "sets are copied with their exercise; duplicate a week, workout or exercise")
        }
        if let requestingUser, tree.userId != requestingUser {
            throw DuplicationError(.permissionDenied, "user '\(requestingUser)' may only duplicate their own documents")
        }
        var matches: [DocumentPath] = []
        var taken: Set<String> = []
        tree.forEach { document, path in
            taken.insert(document.id)
            if document.level == level, document.id == sourceId { matches.append(path) }
        }
        guard let sourcePath = matches.first else {
            throw DuplicationError(.notFound, "no \(level.rawValue) with id '\(sourceId)'")
        }
        guard matches.count == 1 else {
            let places = matches.map(\.description).joined(separator: ", ")
            throw DuplicationError(.invalidArgument, "\(level.rawValue) id '\(sourceId)' is ambiguous: \(places)")
        }

        var generator = IdentifierGenerator(seed: seed ?? IdentifierGenerator.seed(from: "\(sourcePath)@\(now)"), taken: taken)
        var programs = tree.programs
        var outcome: (copy: TrackerDocument, idMap: [(old: String, new: String)], operations: [WriteOperation])?
        try Self.edit(&programs, along: sourcePath.segments[...], parentPath: tree.rootPath, exerciseType: nil) { siblings, index, parentPath, exerciseType in
            outcome = try copyRoot(of: siblings, at: index, parentPath: parentPath, exerciseType: exerciseType,
                                   now: now, generator: &generator)
            if let copy = outcome?.copy { siblings.append(copy) }
        }
        guard let outcome else {
            throw DuplicationError(.notFound, "no \(level.rawValue) with id '\(sourceId)'")
        }
        let batchSize = max(1, policy.maxOperationsPerBatch)
        let batches = stride(from: 0, to: outcome.operations.count, by: batchSize).map {
            Array(outcome.operations[$0..<min($0 + batchSize, outcome.operations.count)])
        }
        let audit = DuplicationAudit(userId: tree.userId, level: level, sourceId: sourceId, newId: outcome.copy.id,
                                     time: now, documents: outcome.operations.count, batches: batches.count)
        return DuplicationResult(tree: TrackerTree(userId: tree.userId, programs: programs), copy: outcome.copy,
                                 idMap: outcome.idMap, batches: batches, audit: audit)
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
                          now: Timestamp, generator: inout IdentifierGenerator)
        throws -> (copy: TrackerDocument, idMap: [(old: String, new: String)], operations: [WriteOperation]) {
        let source = siblings[index]
        var idMap: [(old: String, new: String)] = []
        var operations: [WriteOperation] = []
        var problems: [String] = []
        var copy = copySubtree(source, parentPath: parentPath, exerciseType: exerciseType, now: now,
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
                    "source": Value.orderedMap(sourceFields.sorted { $0.key < $1.key }),
                    "max_sibling_value": Self.maxValue(of: name, in: siblings),
                ]
                let value: Value
                do { value = try formula.evaluate(variables) } catch {
                    throw DuplicationError(.failedPrecondition, "computing '\(name)' of the copy with '\(formula.source)' failed: \(error)")
                }
                copy.fields[name] = value
                if let first = operations.indices.first { operations[first].data[name] = value }
            }
        }
        return (copy, idMap, operations)
    }

    private func copySubtree(_ source: TrackerDocument, parentPath: DocumentPath, exerciseType: String?, now: Timestamp,
                             generator: inout IdentifierGenerator, idMap: inout [(old: String, new: String)],
                             operations: inout [WriteOperation], problems: inout [String]) -> TrackerDocument {
        let newId = generator.next()
        let path = parentPath.appending(source.level, newId)
        idMap.append((source.id, newId))
        var type = exerciseType
        if source.level == .exercise, case .string(let value)? = source.fields["exerciseType"] { type = value }
        let fields = policy.copiedFields(of: source, exerciseType: exerciseType, now: now)
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
            copy.children.append(copySubtree(child, parentPath: path, exerciseType: type, now: now, generator: &generator,
                                             idMap: &idMap, operations: &operations, problems: &problems))
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
