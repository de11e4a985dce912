package import RegimenLanguage
import Foundation
import OrderedCollections

/// One query the tracker app runs (rules/tracker/tracker-queries.yaml).
package struct TrackerQuery: Sendable, Hashable {
    package struct Filter: Sendable, Hashable {
        package var field: String
        package var op: String
        /// The value as written; `$owner` stands for the owner's uid.
        package var value: String

    }

    package struct Order: Sendable, Hashable {
        package var field: String
        package var descending: Bool

    }

    package var name: String
    /// The collection path with `{wildcards}`; `{userId}` is the owner.
    var collection: String
    package var filters: [Filter]
    package var orderBy: [Order]
    package var limit: Int?

    /// The collection id an index names: the last segment of the path.
    package var collectionGroup: String { collection.split(separator: "/").last.map(String.init) ?? collection }

    /// The collection path with its wildcards filled: `{userId}` by `owner`, others by sample ids.
    package func concretePath(owner: String) -> String {
        collection.split(separator: "/").map { segment -> String in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return String(segment) }
            let name = segment.dropFirst().dropLast()
            return name == "userId" ? owner : "\(name.replacingOccurrences(of: "Id", with: ""))1"
        }.joined(separator: "/")
    }

    /// What serves a query.
    package enum Serving: Sendable, Hashable {
        /// Firestore's automatic single-field indexes.
        case singleField
        /// The composite index at this position of the file.
        case composite(Int)
        /// Nothing: Firestore refuses the query until an index is declared.
        case none
    }

    /// What serves this query among `indexes`.
    ///
    /// Firestore serves a query from a composite index of the same collection and scope whose
    /// fields are the query's equality fields (in any order) followed by its sort fields in order
    /// with the same directions. A query with at most one field, or with equality filters only,
    /// is served by the automatic single-field indexes.
    package func serving(in indexes: [CompositeIndex]) -> Serving {
        let equality = filters.filter { $0.op == "==" }.map(\.field)
        let others = filters.filter { $0.op != "==" }.map(\.field)
        let fields = Set(equality + others + orderBy.map(\.field))
        if fields.count <= 1 || (orderBy.isEmpty && others.isEmpty) { return .singleField }
        let sorted = orderBy
        for (position, index) in indexes.enumerated() where index.collectionGroup == collectionGroup && index.queryScope == "COLLECTION" {
            guard index.fields.count == Set(equality).count + sorted.count else { continue }
            let head = index.fields.prefix(Set(equality).count)
            let tail = index.fields.dropFirst(Set(equality).count)
            guard Set(head.map(\.fieldPath)) == Set(equality) else { continue }
            if zip(tail, sorted).allSatisfy({ $0.fieldPath == $1.field && $0.descending == $1.descending }) {
                return .composite(position)
            }
        }
        return .none
    }
}

/// One composite index of a `firestore.indexes.json` file.
package struct CompositeIndex: Sendable, Hashable {
    package struct Field: Sendable, Hashable {
        var fieldPath: String
        package var descending: Bool

    }

    package var collectionGroup: String
    var queryScope: String
    package var fields: [Field]

    /// The composite indexes of a `firestore.indexes.json` value, or every problem found.
    package static func read(_ value: Value) -> Result<[CompositeIndex], QueryCheckError> {
        var problems: [String] = []
        guard case .map(let root) = value, case .list(let items)? = root["indexes"] else {
            return .failure(QueryCheckError(problems: ["an indexes file must be a map with an 'indexes' list"]))
        }
        var indexes: [CompositeIndex] = []
        for (position, item) in items.enumerated() {
            guard case .map(let entry) = item, case .string(let group)? = entry["collectionGroup"],
                  case .list(let fieldItems)? = entry["fields"] else {
                problems.append("indexes[\(position)]: needs 'collectionGroup' and a 'fields' list")
                continue
            }
            let scope = entry["queryScope"]?.stringValue ?? "COLLECTION"
            var fields: [Field] = []
            for (fieldPosition, fieldItem) in fieldItems.enumerated() {
                guard case .map(let field) = fieldItem, case .string(let path)? = field["fieldPath"],
                      case .string(let order)? = field["order"], order == "ASCENDING" || order == "DESCENDING" else {
                    problems.append("indexes[\(position)].fields[\(fieldPosition)]: needs 'fieldPath' and 'order' ASCENDING or DESCENDING")
                    continue
                }
                fields.append(Field(fieldPath: path, descending: order == "DESCENDING"))
            }
            indexes.append(CompositeIndex(collectionGroup: group, queryScope: scope, fields: fields))
        }
        return problems.isEmpty ? .success(indexes) : .failure(QueryCheckError(problems: problems))
    }

    /// `programs (userId ASC, createdAt DESC)`.
    package var summary: String {
        "\(collectionGroup) (\(fields.map { "\($0.fieldPath) \($0.descending ? "DESC" : "ASC")" }.joined(separator: ", ")))"
    }
}

/// Why an indexes or queries file could not be read.
package struct QueryCheckError: DiagnosticError, Hashable {
    package var problems: [String]
    package var description: String { problems.joined(separator: "\n") }
    /// The queries, indexes or policy files given to the check could not be read.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { problems.map { .error("queries.input", $0, at: nil) } }
}
