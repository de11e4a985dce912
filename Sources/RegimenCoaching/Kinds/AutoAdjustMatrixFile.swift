import RegimenLanguage
package import RegimenRules

extension AutoAdjustMatrix.Area: NodeEnum {}

/// `kind: auto_adjust_matrix` — `rules/auto-adjust-matrix.yaml`.
package struct AutoAdjustMatrixFile: RuleFileKind {
    package static let kind = "auto_adjust_matrix"
    /// `matrix`: one auto-adjust row per entry, for coverage and explanations.
    package static let matrixSection = RuleSection(Self.self, .list(idKey: "field"), key: "matrix", category: "auto-adjust row")
    package static var ruleSections: [RuleSection] { [matrixSection] }
    package let matrix: AutoAdjustMatrix

    package var ruleCount: Int { matrix.rows.count }

    package static func decode(_ document: inout MappingDecoder) -> AutoAdjustMatrixFile? {
        let context = document.context
        var covered: [String: SourceLocation] = [:]
        let rows = document.list("matrix") { node, path in
            context.mapping(node, at: path) { map -> AutoAdjustMatrix.Row? in
                guard let fieldNode = map.requiredNode("field"), let field = context.decode(fieldNode, as: String.self, at: path.appending(key: "field")) else {
                    for key in map.keys { map.allow(key) }
                    return nil
                }
                map.path = DecodingPath(subject: "row '\(field)'")
                let also = map.optional("also", default: [String]())
                let handledBy = map.optional("handled_by", as: String.self)
                if let handledBy, handledBy != "adapt" {
                    context.error("rules.unknown-value", map.path.message("'handled_by' must be 'adapt', not '\(handledBy)'"), at: map.node("handled_by")?.location)
                }
                let known = AutoAdjustMatrix.profileFields
                for name in [field] + also {
                    if handledBy == nil && !known.contains(name) {
                        context.checkReference(name, at: fieldNode.location, path: map.path.appending(key: "field"), what: "profile field", known: Set(known))
                    }
                    if let earlier = covered[name] {
                        context.error("rules.duplicate-id", map.path.prefixed("field '\(name)' already has a row"), at: fieldNode.location, notes: ["first row at \(earlier)"])
                    }
                    covered[name] = fieldNode.location
                }
                let workout = map.mapping("workout") { column in impact(&column, allowed: AutoAdjustMatrix.Area.workout, context) }
                let nutrition = map.mapping("nutrition") { column in impact(&column, allowed: AutoAdjustMatrix.Area.nutrition, context) }
                let contextAreas = map.required("context", as: [AutoAdjustMatrix.Area].self)
                for area in contextAreas ?? [] where !AutoAdjustMatrix.Area.context.contains(area) {
                    context.error("rules.scope", map.path.message("'context' lists '\(area.rawValue)', which belongs in the workout or nutrition column"), at: map.node("context")?.location)
                }
                let why = map.required("why", as: String.self)
                guard let workout, let nutrition, let contextAreas, let why else { return nil }
                return AutoAdjustMatrix.Row(
                    field: field, also: also, handledBy: handledBy, workoutImpact: workout.0, workout: workout.1,
                    nutritionImpact: nutrition.0, nutrition: nutrition.1, context: contextAreas, why: why)
            }
        }
        // Every profile field needs a row: a field without one would silently change nothing.
        for field in AutoAdjustMatrix.profileFields where covered[field] == nil {
            context.error("rules.missing-row", "profile field '\(field)' has no row; say what it changes (or 'none')", at: document.node.location)
        }
        guard let rows else { return nil }
        return AutoAdjustMatrixFile(matrix: AutoAdjustMatrix(rows: rows))
    }

    /// One column: the seed's text and the areas the engine recomputes for it.
    private static func impact(_ column: inout MappingDecoder, allowed: Set<AutoAdjustMatrix.Area>, _ context: DecodingContext) -> (String, [AutoAdjustMatrix.Area])? {
        let text = column.required("impact", as: String.self)
        let areas = column.required("recompute", as: [AutoAdjustMatrix.Area].self)
        for area in areas ?? [] where !allowed.contains(area) {
            context.error("rules.scope", column.path.message("lists '\(area.rawValue)', which is not an area of this column (\(allowed.sorted().map(\.rawValue).joined(separator: ", ")))"), at: column.node("recompute")?.location)
        }
        if let text, let areas, text.lowercased() == "none", !areas.isEmpty {
            context.error("rules.conflict", column.path.prefixed("the impact is 'none' but 'recompute' lists \(areas.map(\.rawValue).joined(separator: ", "))"), at: column.node("recompute")?.location)
        }
        guard let text, let areas else { return nil }
        return (text, areas)
    }
}
