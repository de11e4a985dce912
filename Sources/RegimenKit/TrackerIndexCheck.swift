package import Foundation
import OrderedCollections
package import RegimenLanguage
import RegimenRules
import RegimenSecurity
import RegimenTracking

/// `regimen indexes-check`: each query the tracker runs (rules/tracker/tracker-queries.yaml),
/// the declared index that serves it (firestore.indexes.json) and the policy's decision on its
/// owner's list request.
package enum TrackerIndexCheck {
    /// One query checked.
    package struct Result: Sendable {
        /// How the query is served.
        package enum Serving: Sendable {
            /// By Firestore's single-field indexes.
            case singleField
            /// By the declared composite index summed up as `summary`.
            case composite(summary: String)
            /// By no declared index: it needs one on `collectionGroup` with `fields`
            /// (`userId ==, order ASC`).
            case none(collectionGroup: String, fields: String)
        }

        /// The query's name.
        package let name: String
        /// Which index serves it, if any.
        package let serving: Serving
        /// The policy's decision on the owner's list request.
        package let decision: Decision
    }

    /// Why the check could not run; each is the user's input (status 2).
    package enum Failure: Error {
        /// The file at this path cannot be read.
        case unreadable(String)
        /// A file's syntax or shape problems, located; empty for a file at `path` without a document.
        case diagnostics([Diagnostic], path: String)
        /// The indexes file's problems, each naming what is wrong in it.
        case indexes([String], path: String)
        /// The policy does not read or compile.
        case policy([Diagnostic])
    }

    /// Checks every query of the file at `queries` against the indexes at `indexes` and the
    /// policy at `policy`, the queries run as `owner`'s. Paths are named as given by the
    /// `...Path` arguments in problems.
    package static func run(queries: URL, queriesPath: String, indexes: URL, indexesPath: String, policy: String,
                            owner: String) throws(Failure) -> [Result] {
        let queryList = try readQueries(queries, path: queriesPath)
        let read = YAMLReader.read(contentsOf: indexes, displayPath: indexesPath)
        guard read.diagnostics.isEmpty, let document = read.document else { throw .diagnostics(read.diagnostics, path: indexesPath) }
        let declared: [CompositeIndex]
        switch CompositeIndex.read(document.value()) {
        case .success(let found): declared = found
        case .failure(let error): throw .indexes(error.problems, path: indexesPath)
        }
        let compiled: Policy
        do {
            compiled = try Policy(file: policy)
        } catch {
            throw .policy(error.diagnostics)
        }
        return queryList.map { query in
            let serving: Result.Serving = switch query.serving(in: declared) {
            case .singleField: .singleField
            case .composite(let position): .composite(summary: declared[position].summary)
            case .none: .none(collectionGroup: query.collectionGroup, fields: needed(query))
            }
            return Result(name: query.name, serving: serving, decision: compiled.decide(listRequest(query, owner: owner)))
        }
    }

    private static func readQueries(_ url: URL, path: String) throws(Failure) -> [TrackerQuery] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw .unreadable(path) }
        let result = RuleSetLoader(kinds: [TrackerQueriesFile.self]).load(files: [(path, text)])
        if result.hasErrors { throw .diagnostics(result.diagnostics, path: path) }
        return result.ruleSet.all(TrackerQueriesFile.self).flatMap(\.queries)
    }

    /// The fields an index serving `query` needs: the filters, then the sort fields in order.
    private static func needed(_ query: TrackerQuery) -> String {
        (query.filters.map { "\($0.field) \($0.op)" } + query.orderBy.map { "\($0.field) \($0.descending ? "DESC" : "ASC")" })
            .joined(separator: ", ")
    }

    /// The query as its owner's list request.
    private static func listRequest(_ query: TrackerQuery, owner: String) -> SecurityRequest {
        var orderBy = OrderedDictionary<String, String>()
        for order in query.orderBy { orderBy[order.field] = order.descending ? "desc" : "asc" }
        let filters = query.filters.compactMap { filter -> QueryFilter? in
            guard let op = QueryFilter.Operator(rawValue: filter.op) else { return nil }
            return QueryFilter(field: filter.field, op: op, value: .string(filter.value == "$owner" ? owner : filter.value))
        }
        let listQuery = ListQuery(limit: query.limit.map(Int64.init), orderBy: orderBy, filters: filters)
        return SecurityRequest(auth: AuthContext(uid: owner),
                               operation: .list(RequestPath(query.concretePath(owner: owner), service: .firestore), listQuery),
                               time: Timestamp(seconds: 1_735_689_600))
    }
}
