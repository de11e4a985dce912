/// What the compiler knows about an expression's type before evaluation. `dynamic` means "could be
/// anything" (undeclared variables, map fields); checks only fire when both sides are known.
/// `number` is an int or a float, known only from a variable's declaration.
enum StaticType: String, Sendable, Equatable {
    case dynamic = "dyn"
    case null, bool, int, float, number, string, bytes, list, map, set, path, timestamp, duration, latlng
    case mapDiff = "map_diff"

    var isKnown: Bool { self != .dynamic }
    var isNumber: Bool { self == .int || self == .float || self == .number }

    static func of(_ value: Value) -> StaticType {
        switch value {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .string: .string
        case .bytes: .bytes
        case .list: .list
        case .map: .map
        case .set: .set
        case .path: .path
        case .timestamp: .timestamp
        case .duration: .duration
        case .latlng: .latlng
        case .mapDiff: .mapDiff
        case .constraint: .dynamic
        }
    }

    /// The result type of `lhs op rhs` for arithmetic, or `nil` when the operation is invalid.
    static func arithmetic(_ op: BinaryOperator, _ lhs: StaticType, _ rhs: StaticType) -> StaticType? {
        guard lhs.isKnown, rhs.isKnown else { return .dynamic }
        switch (lhs, rhs) {
        case (.int, .int): return .int
        case (.number, _) where rhs.isNumber, (_, .number) where lhs.isNumber: return (op == .remainder) ? .dynamic : .number
        case (.float, .float), (.int, .float), (.float, .int): return (op == .remainder) ? .dynamic : .float
        case (.string, .string) where op == .add: return .string
        case (.duration, .duration) where op == .add || op == .subtract: return .duration
        case (.timestamp, .duration) where op == .add || op == .subtract: return .timestamp
        case (.duration, .timestamp) where op == .add: return .timestamp
        case (.timestamp, .timestamp) where op == .subtract: return .duration
        default: return nil
        }
    }

    static func comparable(_ lhs: StaticType, _ rhs: StaticType) -> Bool {
        guard lhs.isKnown, rhs.isKnown else { return true }
        if lhs.isNumber && rhs.isNumber { return true }
        return lhs == rhs && [.string, .bytes, .timestamp, .duration].contains(lhs)
    }
}

extension Method {
    var resultType: StaticType {
        switch self {
        case .size, .year, .month, .day, .hours, .minutes, .nanos, .dayOfWeek, .dayOfYear, .toMillis: .int
        case .seconds: .int
        case .matches, .hasAll, .hasAny, .hasOnly: .bool
        case .lower, .upper, .trim, .replace, .join, .toBase64, .toHexString: .string
        case .split, .concat, .removeAll, .keys, .values: .list
        case .toUtf8: .bytes
        case .toSet, .difference, .intersection, .union, .addedKeys, .removedKeys, .changedKeys, .unchangedKeys, .affectedKeys: .set
        case .get: .dynamic
        case .diff: .mapDiff
        case .date: .timestamp
        case .time: .duration
        case .distance, .latitude, .longitude: .float
        case .bind: .path
        }
    }
}

extension Builtin {
    var resultType: StaticType {
        switch self {
        case .int, .mathRound: .int
        case .float, .mathCeil, .mathFloor, .mathSqrt, .mathPow: .float
        case .string: .string
        case .path: .path
        case .debug, .mathAbs: .dynamic
        case .mathIsNaN: .bool
        case .timestampDate, .timestampValue: .timestamp
        case .durationValue, .durationTime, .durationAbs: .duration
        case .latlngValue: .latlng
        case .hashingCrc32, .hashingCrc32c, .hashingMd5, .hashingSha256: .bytes
        }
    }
}
