/// A variable a rule expression may read: its name, the type of every value bound to it, and
/// what it means to a person writing rules.
///
/// A rule kind declares its variables once; the compile environment, the run-time bindings, the
/// static type checks and the documentation (`regimen explain-kind`) all come from that list.
package struct VariableDeclaration: Sendable, Hashable {
    package let name: String
    package let type: ExpressionType
    /// One line for a rule writer: what the value is, its unit or its range.
    package let doc: String

    package init(_ name: String, _ type: ExpressionType, _ doc: String) {
        self.name = name
        self.type = type
        self.doc = doc
    }
}

/// The type of a declared variable, as far as the compiler can check it before evaluation.
///
/// `number` is an int or a float (a count of weekly sets may be fractional); `or null` admits
/// `null` too, for facts that may be missing. The compiler checks a nullable variable as its
/// base type: comparing it with `null` is allowed, any other use is checked, and a `null` at run
/// time is an evaluation error as before.
package struct ExpressionType: Sendable, Hashable, CustomStringConvertible {
    package enum Base: String, Sendable, Hashable, CaseIterable {
        case any, bool, int, float, number, string, list, map, set, timestamp, duration
    }

    package let base: Base
    package let nullable: Bool
    /// For a `map` that is a record (a profile, a catalog item, a check-in): its fields and
    /// their types. Reading any other field is a compile error at the field's name, with a
    /// suggestion. `nil` for an open map whose keys are data (security's `resource.data`).
    package let fields: [String: ExpressionType]?
    /// For a `string` (or a `list` of strings): the values it can hold. Comparing it with a
    /// string literal outside them (`==`, `!=`, `in`) is a compile error at the literal.
    /// `nil` when any string may occur.
    package let values: [String]?
    /// For a `string` whose values the rule set names (goal ids, age ranges, catalog ids): the
    /// vocabulary's name. The compiler records each string literal compared with it
    /// (``CompiledExpression/vocabularyUses``), and the loader checks them once every file is read.
    package let vocabulary: String?

    package init(_ base: Base, nullable: Bool = false, fields: [String: ExpressionType]? = nil, values: [String]? = nil, vocabulary: String? = nil) {
        self.base = base
        self.nullable = nullable
        self.fields = fields
        self.values = values
        self.vocabulary = vocabulary
    }

    /// A string that holds one value of the rule set's `vocabulary` (see ``vocabulary``).
    package static func named(_ vocabulary: String) -> ExpressionType { ExpressionType(.string, vocabulary: vocabulary) }

    /// A record: a map whose fields are known.
    package static func record(_ fields: [String: ExpressionType]) -> ExpressionType { ExpressionType(.map, fields: fields) }
    /// A string that holds one of `values`.
    package static func oneOf(_ values: [String]) -> ExpressionType { ExpressionType(.string, values: values) }
    /// A list of strings, each one of `values`.
    package static func listOf(_ values: [String]) -> ExpressionType { ExpressionType(.list, values: values) }

    /// Whether the compiler checks more than the base type: a record's fields or a string's values.
    var hasShape: Bool { fields != nil || values != nil || vocabulary != nil }

    package static let any = ExpressionType(.any)
    package static let bool = ExpressionType(.bool)
    package static let int = ExpressionType(.int)
    package static let float = ExpressionType(.float)
    package static let number = ExpressionType(.number)
    package static let string = ExpressionType(.string)
    package static let list = ExpressionType(.list)
    package static let map = ExpressionType(.map)

    /// The same type, or `null`.
    package var orNull: ExpressionType { ExpressionType(base, nullable: true, fields: fields, values: values, vocabulary: vocabulary) }

    /// `int`, `number or null`.
    package var description: String { base.rawValue + (nullable && base != .any ? " or null" : "") }

    /// Whether `value` is a value of this type: what every run-time binding must satisfy.
    package func admits(_ value: Value) -> Bool {
        if case .null = value { return nullable || base == .any }
        switch (base, value) {
        case (.any, _), (.bool, .bool), (.int, .int), (.float, .float), (.number, .int), (.number, .float), (.string, .string),
             (.list, .list), (.map, .map), (.set, .set), (.timestamp, .timestamp), (.duration, .duration):
            return true
        default:
            return false
        }
    }

    /// What the compiler assumes about an expression that reads the variable.
    var staticType: StaticType {
        switch base {
        case .any: .dynamic
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .number: .number
        case .string: .string
        case .list: .list
        case .map: .map
        case .set: .set
        case .timestamp: .timestamp
        case .duration: .duration
        }
    }
}
