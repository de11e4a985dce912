import ArgumentParser
import Foundation
import OrderedCollections
import RegimenKit
import RegimenRules
import RegimenSecurity
import RegimenTracking

/// `regimen indexes-check`: every tracker query is served by a declared index and allowed by the policy.
struct IndexesCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "indexes-check",
        abstract: "Check the tracker's queries against Appendix B's indexes and the policy's list rules.",
        discussion: """
            Each query of rules/tracker/tracker-queries.yaml must be served by an index of \
            rules/security/workout-tracker/firestore.indexes.json (a composite index of the same \
            collection with the equality fields first, then the sort fields in order and direction, \
            or Firestore's single-field indexes) and allowed as a list by its owner under \
            rules/security/workout-tracker/corrected.rules. Prints one line per query; exits 1 when \
            one fails, 2 when a file cannot be read.
            """)

    @Option(help: "The queries file.") var queries = "rules/tracker/tracker-queries.yaml"
    @Option(help: "The indexes file (firestore.indexes.json).") var indexes = "rules/security/workout-tracker/firestore.indexes.json"
    @Option(help: "The Firestore policy.") var policy = "rules/security/workout-tracker/corrected.rules"
    @Option(help: "The owner's uid the queries run as.") var owner = "alice"

    func run() throws {
        let context = CommandContext.current
        let queryList = try Self.queries(queries, in: context)
        let indexValue = try Self.document(indexes, in: context)
        let declared: [CompositeIndex]
        switch CompositeIndex.read(indexValue) {
        case .success(let read): declared = read
        case .failure(let error):
            for problem in error.problems { context.standardError.writeLine("\(indexes): error: \(problem)") }
            throw CommandFailure.usage
        }
        let compiled: CompiledPolicy
        do {
            compiled = try CompiledPolicy(try PolicyLoader.load(file: TrackingCommandSupport.resolve(policy, in: context).path))
        } catch {
            context.standardError.writeLine(error.description)
            throw CommandFailure.usage
        }
        var failures = 0
        for query in queryList {
            var notes: [String] = []
            var ok = true
            switch query.serving(in: declared) {
            case .singleField: notes.append("single-field indexes")
            case .composite(let position): notes.append("index \(declared[position].summary)")
            case .none:
                ok = false
                notes.append("no declared index serves it (needs \(query.collectionGroup) with \(Self.needed(query)))")
            }
            let decision = compiled.decide(Self.listRequest(query, owner: owner), store: DocumentStore())
            if decision.allowed {
                if let granted = decision.grantedBy {
                    let location = "\(granted.location)".replacingOccurrences(of: context.currentDirectory.path + "/", with: "")
                    notes.append("allowed by 'allow \(granted.methodList)' at \(location)")
                }
            } else {
                ok = false
                notes.append("the policy denies the owner's list")
            }
            if !ok { failures += 1 }
            context.standardOutput.writeLine("\(ok ? "ok" : "FAIL")\t\(query.name): \(notes.joined(separator: "; "))")
        }
        context.standardOutput.writeLine("\(queryList.count - failures) of \(queryList.count) queries served and allowed")
        if failures > 0 { throw CommandFailure.failed }
    }

    static func needed(_ query: TrackerQuery) -> String {
        (query.filters.map { "\($0.field) \($0.op)" } + query.orderBy.map { "\($0.field) \($0.descending ? "DESC" : "ASC")" })
            .joined(separator: ", ")
    }

    /// The query as its owner's list request.
    static func listRequest(_ query: TrackerQuery, owner: String) -> SecurityRequest {
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

    static func queries(_ path: String, in context: CommandContext) throws(CommandFailure) -> [TrackerQuery] {
        let url = TrackingCommandSupport.resolve(path, in: context)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            context.standardError.writeLine("error: cannot read \(path)")
            throw .usage
        }
        let result = RuleSetLoader(kinds: [TrackerQueriesFile.self]).load(files: [(path, text)])
        if result.hasErrors {
            DiagnosticPrinter.print(result.diagnostics, to: context.standardError)
            throw .usage
        }
        return result.ruleSet.all(TrackerQueriesFile.self).flatMap(\.queries)
    }

    /// Reads a JSON or YAML document as a value; syntax problems print (status 2).
    static func document(_ path: String, in context: CommandContext) throws(CommandFailure) -> Value {
        let read = YAMLReader.read(contentsOf: TrackingCommandSupport.resolve(path, in: context), displayPath: path)
        guard read.diagnostics.isEmpty, let document = read.document else {
            DiagnosticPrinter.print(read.diagnostics, to: context.standardError)
            if read.diagnostics.isEmpty { context.standardError.writeLine("error: \(path) is empty") }
            throw .usage
        }
        return document.value()
    }
}
