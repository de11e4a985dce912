import RegimenLanguage
package import RegimenRules

/// `kind: tracker_queries` — decodes `rules/tracker/tracker-queries.yaml` into ``TrackerQuery`` values.
package struct TrackerQueriesFile: RuleFileKind {
    package static let kind = "tracker_queries"
    package let queries: [TrackerQuery]

    package var ruleCount: Int { queries.count }

    package static func decode(_ document: inout MappingDecoder) -> TrackerQueriesFile? {
        let context = document.context
        let queries = document.list("queries") { node, path in
            context.mapping(node, at: path) { map -> TrackerQuery? in
                // Every key is read even without `name`, so a missing one is a single error.
                let name = map.required("name", as: String.self)
                if let name { map.path = map.path.about("query '\(name)'") }
                let collection = map.required("collection", as: String.self)
                var filters: [TrackerQuery.Filter] = []
                for filter in map.optional("where", as: [[String]].self) ?? [] {
                    guard filter.count == 3, ["==", "<", "<=", ">", ">=", "!=", "in", "array-contains"].contains(filter[1]) else {
                        context.error("rules.bad-value", map.path.message("each 'where' entry is [field, op, value] with a Firestore operator, not \(filter)"),
                                      at: map.node["where"]?.location)
                        continue
                    }
                    filters.append(TrackerQuery.Filter(field: filter[0], op: filter[1], value: filter[2]))
                }
                var orders: [TrackerQuery.Order] = []
                for order in map.optional("order_by", as: [[String]].self) ?? [] {
                    guard order.count == 2, order[1] == "asc" || order[1] == "desc" else {
                        context.error("rules.bad-value", map.path.message("each 'order_by' entry is [field, asc|desc], not \(order)"),
                                      at: map.node["order_by"]?.location)
                        continue
                    }
                    orders.append(TrackerQuery.Order(field: order[0], descending: order[1] == "desc"))
                }
                let limit = map.optional("limit", as: Int.self, in: 1...10_000)
                guard let name, let collection else { return nil }
                return TrackerQuery(name: name, collection: collection, filters: filters, orderBy: orders, limit: limit)
            }
        }
        guard !context.hasErrors, let queries else { return nil }
        return TrackerQueriesFile(queries: queries)
    }
}
