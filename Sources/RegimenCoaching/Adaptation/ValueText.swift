import Foundation
import RegimenLanguage

/// How numbers and values read in messages and change logs: `5`, `2.5`, `102.5`, lists as
/// `a, b`. Deterministic and locale-independent.
enum ValueText {
    /// A value as a person reads it in a sentence.
    static func display(_ value: Value) -> String {
        switch value {
        case .null: return "unknown"
        case .bool(let b): return b ? "yes" : "no"
        case .int(let i): return String(i)
        case .float(let f): return number(f)
        case .string(let s): return s
        case .list(let items): return items.map(display).joined(separator: ", ")
        case .set(let set): return set.elements.map(display).sorted().joined(separator: ", ")
        default: return value.description
        }
    }

    /// A number with at most `decimals` decimals and no trailing zeros: 5, 2.5, 313.5.
    static func number(_ x: Double, decimals: Int = 2) -> String { NumberText.rounded(x, decimals: decimals) }

    /// A signed number: `+2`, `-10`, `+2.5`.
    static func signed(_ x: Double, decimals: Int = 2) -> String {
        (x > 0 ? "+" : "") + number(x, decimals: decimals)
    }

    /// `back_squat` → `Back squat`; `upper_body` → `Upper body`.
    static func label(_ identifier: String) -> String {
        let words = identifier.replacingOccurrences(of: "_", with: " ")
        guard let first = words.first else { return words }
        return first.uppercased() + words.dropFirst()
    }
}
