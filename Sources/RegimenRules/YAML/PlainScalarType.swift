/// The type a plain YAML scalar resolves to under the YAML 1.2 core schema.
package enum PlainScalarType: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Double)
    case string

    /// Classifies `text` as the core schema does: `~`/`null`/empty is null, `true`/`false` (three
    /// casings) are booleans, decimal/`0o`/`0x` digits are integers, decimal and `.inf`/`.nan`
    /// forms are floats, anything else is a string. An integer too large for 64 bits is a float.
    package init(classifying text: String) {
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null
        case "true", "True", "TRUE": self = .bool(true)
        case "false", "False", "FALSE": self = .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": self = .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": self = .float(-.infinity)
        case ".nan", ".NaN", ".NAN": self = .float(.nan)
        default:
            if let int = Self.integer(text) {
                self = .int(int)
            } else if Self.isDecimalFloat(text) || Self.isDecimalInteger(text), let double = Double(text) {
                self = .float(double)
            } else {
                self = .string
            }
        }
    }

    package static func == (lhs: PlainScalarType, rhs: PlainScalarType) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null), (.string, .string): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.float(a), .float(b)): a == b || (a.isNaN && b.isNaN)
        default: false
        }
    }

    private static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0x"), text.count > 2 { return Int64(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0o"), text.count > 2 { return Int64(text.dropFirst(2), radix: 8) }
        guard isDecimalInteger(text) else { return nil }
        return Int64(text)
    }

    private static func isDecimalInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if let first = digits.first, first == "-" || first == "+" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `[-+]? ( . digits | digits ( . digits? )? ) ( [eE] [-+]? digits )?`
    private static func isDecimalFloat(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - start
        }
        if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" { index += 1 }
        let whole = digits()
        var fraction = 0
        var hasPoint = false
        if index < scalars.count, scalars[index] == "." {
            hasPoint = true
            index += 1
            fraction = digits()
        }
        guard whole > 0 || fraction > 0 else { return false }
        var hasExponent = false
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            hasExponent = true
            index += 1
            if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == scalars.count && (hasPoint || hasExponent)
    }
}
