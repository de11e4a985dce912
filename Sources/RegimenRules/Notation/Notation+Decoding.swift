import RegimenLanguage

extension DecodingContext {
    /// Parses the scalar in `node` with `parse`, reporting a ``NotationError`` at the exact
    /// character it names: `rule 'x': 'reps': range runs backwards: 12 is above 8`.
    func parseNotation<T>(
        _ node: LocatedNode, at path: DecodingPath, expected: String, _ parse: (String) throws(NotationError) -> T
    ) -> T? {
        if describe(.text, for: node) { return nil }
        guard let scalar = node.scalar, scalar.plainType != .null else {
            wrongType(node, expected: expected, at: path)
            return nil
        }
        do {
            return try parse(scalar.text)
        } catch {
            let location = ExpressionSource(node)?.location(ofScalarOffset: error.offset) ?? node.location
            self.error("rules.notation", path.prefixed("\(path.quotedKey): \(error.message)"), at: location)
            return nil
        }
    }
}

extension NumberRange: NodeDecodable {
    /// A number (`10`), range notation (`8-12`, `8–12`), a pair `[8, 12]` or a mapping
    /// `{min: 8, max: 12}`. Every rule file reads its ranges here, so each form means the same
    /// and a mistake gets the same message in every kind.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> NumberRange? {
        if context.isDescribing {
            // The forms below: a number or notation (text), a pair of numbers, {min, max}.
            let mapping = context.shape { _ = decodeMapping($0, at: path, in: context) }
            _ = context.describe(.anyOf([.text, .tuple(.number(minimum: nil, maximum: nil), count: 2), mapping]), for: node)
            return nil
        }
        if let items = node.sequence {
            guard items.count == 2 else {
                context.error("rules.range", path.message("must be a range such as 8-12 or [8, 12], not a list of \(items.count)"), at: node.location)
                return nil
            }
            let low = context.decode(items[0], as: Double.self, at: path.appending(index: 0))
            let high = context.decode(items[1], as: Double.self, at: path.appending(index: 1))
            guard let low, let high else { return nil }
            return bounded(low, high, node: node, at: path, in: context, names: ("", ""))
        }
        if node.mapping != nil { return decodeMapping(node, at: path, in: context) }
        switch node.scalar?.plainType {
        case .int(let value)?: return NumberRange(Double(value), Double(value), integral: true)
        case .float(let value)? where value.isFinite: return NumberRange(value, value, integral: false)
        default: return context.parseNotation(node, at: path, expected: "a number or a range such as 8-12") { text throws(NotationError) in try NumberRange(parsing: text) }
        }
    }

    /// The `{min: 8, max: 12}` form.
    private static func decodeMapping(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> NumberRange? {
        context.mapping(node, at: path) { map in
            let low = map.required("min", as: Double.self)
            let high = map.required("max", as: Double.self)
            guard let low, let high else { return nil }
            return bounded(low, high, node: node, at: path, in: context, names: ("min ", "max "))
        }
    }

    /// The range `low...high` from two numbers read separately, or an error saying what is wrong.
    private static func bounded(
        _ low: Double, _ high: Double, node: LocatedNode, at path: DecodingPath, in context: DecodingContext, names: (String, String)
    ) -> NumberRange? {
        guard low.isFinite, high.isFinite else {
            context.error("rules.out-of-range", path.message("must have finite bounds"), at: node.location)
            return nil
        }
        guard let range = NumberRange(low, high) else {
            context.error("rules.out-of-range", path.message("runs backwards: \(names.0)\(format(low)) is above \(names.1)\(format(high))"), at: node.location)
            return nil
        }
        return range
    }

    /// The bounds as a `ClosedRange` (always valid: a range's bounds are finite and ordered).
    package var closedRange: ClosedRange<Double> { lower...upper }
}

extension Quantity: NodeDecodable {
    /// Notation such as `2.5kg`, `90s`, `2.5-5%`, or a mapping `{amount: 2.5, unit: kg}`.
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Quantity? {
        if context.isDescribing {
            // The forms below: notation (text) or {amount, unit}.
            let mapping = context.shape { _ = decodeMapping($0, at: path, in: context) }
            _ = context.describe(.anyOf([.text, mapping]), for: node)
            return nil
        }
        if node.mapping != nil { return decodeMapping(node, at: path, in: context) }
        return context.parseNotation(node, at: path, expected: "a quantity with a unit such as 2.5kg or 90s") { text throws(NotationError) in try Quantity(parsing: text) }
    }

    /// The `{amount: 2.5, unit: kg}` form.
    private static func decodeMapping(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Quantity? {
        context.mapping(node, at: path) { map in
            let amount = map.required("amount", as: NumberRange.self)
            let unitNode = map.requiredNode("unit")
            guard let amount, let unitNode else { return nil }
            guard let text = unitNode.scalar?.text, let unit = QuantityUnit.spellings[text.lowercased()] else {
                let word = unitNode.scalar?.text ?? unitNode.kindDescription
                let suggestion = Suggestion.clause(for: word, among: QuantityUnit.allCases.map(\.rawValue))
                context.error("rules.notation", path.appending(key: "unit").message("is not a unit: '\(word)'\(suggestion); expected \(Quantity.unitList)"), at: unitNode.location)
                return nil
            }
            return Quantity(amount, unit)
        }
    }

    /// Decodes a quantity that must measure `dimension` (a rest must be a time).
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext, dimension: QuantityUnit.Dimension) -> Quantity? {
        guard let quantity = decode(from: node, at: path, in: context) else { return nil }
        guard quantity.dimension == dimension else {
            let units = QuantityUnit.allCases.filter { $0.dimension == dimension }.map(\.rawValue).joined(separator: ", ")
            context.error("rules.wrong-unit", path.message("must be a \(dimension.rawValue) (\(units)), not '\(quantity)'"), at: node.location)
            return nil
        }
        return quantity
    }
}

extension Prescription: NodeDecodable {
    /// Notation such as `3x8-12 @RIR 1-3`, or the same fields as a mapping:
    /// `{sets: 3, reps: 8-12, rir: 1-3}` (also `rpe`, `amrap`, `load`, `rest`).
    package static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Prescription? {
        if context.isDescribing {
            // The forms below: notation (text) or the same fields as a mapping.
            let mapping = context.shape { _ = decodeMapping($0, at: path, in: context) }
            _ = context.describe(.anyOf([.text, mapping]), for: node)
            return nil
        }
        guard node.mapping != nil else {
            return context.parseNotation(node, at: path, expected: "a prescription such as 3x8-12 @RIR 1-3") { text throws(NotationError) in try Prescription(parsing: text) }
        }
        return decodeMapping(node, at: path, in: context)
    }

    /// The `{sets: 3, reps: 8-12, rir: 1-3}` form.
    private static func decodeMapping(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> Prescription? {
        context.mapping(node, at: path) { map -> Prescription? in
            let sets = map.required("sets", as: NumberRange.self)
            let reps = map.required("reps", as: NumberRange.self)
            let amrap = map.optional("amrap", default: false)
            let rir = map.optional("rir", as: NumberRange.self)
            let rpe = map.optional("rpe", as: NumberRange.self)
            let load = map.node("load").flatMap { Quantity.decode(from: $0, at: path.appending(key: "load"), in: context) }
            let rest = map.node("rest").flatMap { Quantity.decode(from: $0, at: path.appending(key: "rest"), in: context, dimension: .time) }
            if rir != nil, rpe != nil, let location = map.location(ofKey: "rpe") {
                context.error("rules.conflict", path.prefixed("give either 'rir' or 'rpe', not both"), at: location)
                return nil
            }
            guard let sets, let reps else { return nil }
            let effort = rir.map { Effort(.rir, $0) } ?? rpe.map { Effort(.rpe, $0) }
            // Reuse the notation's checks by round-tripping through it, so both forms obey one rule set.
            let candidate = Prescription(sets: sets, reps: reps, asManyAsPossible: amrap, effort: effort, load: load, rest: rest)
            do throws(NotationError) {
                return try Prescription(parsing: candidate.description)
            } catch {
                context.error("rules.notation", path.prefixed("\(path.quotedKey): \(error.message)"), at: node.location)
                return nil
            }
        }
    }
}
