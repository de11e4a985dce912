import OrderedCollections
public import RegimenLanguage

/// One document of the tracker hierarchy with the documents of its subcollection.
public struct TrackerDocument: Sendable, Hashable {
    /// The document's level in the hierarchy.
    public var level: TrackerLevel
    /// The document's id within its collection.
    public var id: String
    /// The document's fields, without `id` and without its child collection.
    public var fields: [String: Value]
    /// The documents of the child collection, in the order they were given.
    public var children: [TrackerDocument]

    /// A document of `level` with the given id, fields and child documents.
    public init(level: TrackerLevel, id: String, fields: [String: Value] = [:], children: [TrackerDocument] = []) {
        self.level = level
        self.id = id
        self.fields = fields
        self.children = children
    }

    /// The number of documents in this subtree, this one included.
    public var documentCount: Int { children.reduce(1) { $0 + $1.documentCount } }

    /// Visits this document and its descendants parent-first, with each one's path.
    package func forEach(path: DocumentPath, _ visit: (TrackerDocument, DocumentPath) throws -> Void) rethrows {
        let own = path.appending(level, id)
        try visit(self, own)
        for child in children { try child.forEach(path: own, visit) }
    }

    /// The document as a map in the tree format: `id`, its fields, then its child collection.
    public var value: Value {
        var pairs: [(String, Value)] = [("id", .string(id))]
        for key in fields.keys.sorted() { pairs.append((key, (fields[key] ?? .null).encodingTaggedTimestamps)) }
        if let child = level.child {
            pairs.append((child.collection, .list(children.map(\.value))))
        }
        return Value.orderedMap(pairs)
    }
}

/// Where a document lives: `users/u1/programs/p1/weeks/w1`.
package struct DocumentPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    var userId: String?
    package var segments: [(level: TrackerLevel, id: String)]

    init(userId: String?, segments: [(level: TrackerLevel, id: String)] = []) {
        self.userId = userId
        self.segments = segments
    }

    package func appending(_ level: TrackerLevel, _ id: String) -> DocumentPath {
        DocumentPath(userId: userId, segments: segments + [(level, id)])
    }

    /// The id of the document of `level` on this path, if the path goes through that level.
    package func id(of level: TrackerLevel) -> String? { segments.first { $0.level == level }?.id }

    package var description: String {
        var parts: [String] = []
        if let userId { parts += ["users", userId] }
        for segment in segments { parts += [segment.level.collection, segment.id] }
        return parts.joined(separator: "/")
    }

    package static func == (lhs: DocumentPath, rhs: DocumentPath) -> Bool { lhs.description == rhs.description }
    package func hash(into hasher: inout Hasher) { hasher.combine(description) }
    package static func < (lhs: DocumentPath, rhs: DocumentPath) -> Bool { lhs.description < rhs.description }
}

/// A user's programs: the root of a document tree as `regimen validate` and `duplicate` read it.
///
/// The tree format nests each subcollection under its plural name, the seed's field names
/// throughout: `{userId, programs: [{id, name, weeks: [{id, order, workouts: [...]}]}]}`.
public struct TrackerTree: Sendable, Hashable {
    /// The user who owns the tree, if given.
    public var userId: String?
    /// The user's programs, in the order given.
    public var programs: [TrackerDocument]

    /// A tree of `programs` owned by `userId`.
    public init(userId: String?, programs: [TrackerDocument]) {
        self.userId = userId
        self.programs = programs
    }

    /// The root path every document path starts from.
    var rootPath: DocumentPath { DocumentPath(userId: userId) }

    /// Visits every document parent-first.
    package func forEach(_ visit: (TrackerDocument, DocumentPath) throws -> Void) rethrows {
        for program in programs { try program.forEach(path: rootPath, visit) }
    }

    /// The number of documents in the tree.
    public var documentCount: Int { programs.reduce(0) { $0 + $1.documentCount } }

    /// The tree in its input format, keys in a stable order.
    public var value: Value {
        var pairs: [(String, Value)] = []
        if let userId { pairs.append(("userId", .string(userId))) }
        pairs.append(("programs", .list(programs.map(\.value))))
        return Value.orderedMap(pairs)
    }

    /// Reads a tree from its JSON or YAML value, reporting every structural problem found.
    ///
    /// A document that cannot be read (not a map, no string `id`) is left out and reported; the
    /// rest of the tree is still read so that one pass reports everything.
    public static func read(_ value: Value) -> (tree: TrackerTree, problems: [TrackerViolation]) {
        var problems: [TrackerViolation] = []
        guard case .map(let root) = value else {
            problems.append(TrackerViolation(path: "", .error, "a document tree must be a map with 'programs', not \(value.typeName)"))
            return (TrackerTree(userId: nil, programs: []), problems)
        }
        var userId: String?
        for (key, entry) in root where key != "programs" {
            if key == "userId", case .string(let id) = entry {
                userId = id
            } else if key == "userId" {
                problems.append(TrackerViolation(path: "", field: "userId", .error, "'userId' must be a string, not \(entry.typeName)"))
            } else {
                problems.append(TrackerViolation(path: "", field: key, .error, "unknown key '\(key)' at the top of the tree; expected 'userId' and 'programs'"))
            }
        }
        let programs = readCollection(root["programs"], level: .program, parent: DocumentPath(userId: userId), problems: &problems)
        return (TrackerTree(userId: userId, programs: programs), problems)
    }

    private static func readCollection(_ value: Value?, level: TrackerLevel, parent: DocumentPath,
                                       problems: inout [TrackerViolation]) -> [TrackerDocument] {
        let here = parent.description.isEmpty ? level.collection : "\(parent)/\(level.collection)"
        guard let value else { return [] }
        guard case .list(let items) = value else {
            problems.append(TrackerViolation(path: here, .error, "'\(level.collection)' must be a list, not \(value.typeName)"))
            return []
        }
        var documents: [TrackerDocument] = []
        for (index, item) in items.enumerated() {
            guard case .map(let entries) = item else {
                problems.append(TrackerViolation(path: "\(here)[\(index)]", .error, "a \(level.rawValue) must be a map, not \(item.typeName)"))
                continue
            }
            guard case .string(let id)? = entries["id"], !id.isEmpty, !id.contains("/") else {
                problems.append(TrackerViolation(path: "\(here)[\(index)]", .error, "a \(level.rawValue) needs an 'id': a non-empty string without '/'"))
                continue
            }
            let path = parent.appending(level, id)
            var fields: [String: Value] = [:]
            var children: [TrackerDocument] = []
            for (key, entry) in entries where key != "id" {
                if let child = level.child, key == child.collection {
                    children = readCollection(entry, level: child, parent: path, problems: &problems)
                } else {
                    fields[key] = entry.decodingTaggedTimestamps
                }
            }
            documents.append(TrackerDocument(level: level, id: id, fields: fields, children: children))
        }
        return documents
    }
}

extension Value {
    /// A map value keeping the order of `pairs`.
    static func orderedMap(_ pairs: [(String, Value)]) -> Value {
        var dictionary = OrderedDictionary<String, Value>()
        for (key, value) in pairs { dictionary[key] = value }
        return .map(dictionary)
    }
}
