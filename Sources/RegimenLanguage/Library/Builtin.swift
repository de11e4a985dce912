import Foundation

/// Free and namespaced functions of the language (`int()`, `math.abs()`, `duration.value()`, …).
enum Builtin: String, Sendable, CaseIterable {
    case int, float, string, path, debug
    case mathAbs = "math.abs", mathCeil = "math.ceil", mathFloor = "math.floor", mathRound = "math.round"
    case mathSqrt = "math.sqrt", mathPow = "math.pow", mathIsNaN = "math.isNaN"
    case timestampDate = "timestamp.date", timestampValue = "timestamp.value"
    case durationValue = "duration.value", durationTime = "duration.time", durationAbs = "duration.abs"
    case latlngValue = "latlng.value"

    var arity: ClosedRange<Int> {
        switch self {
        case .int, .float, .string, .path, .debug, .mathAbs, .mathCeil, .mathFloor, .mathRound, .mathSqrt,
             .mathIsNaN, .timestampValue, .durationAbs:
            1...1
        case .mathPow, .durationValue, .latlngValue:
            2...2
        case .timestampDate:
            3...3
        case .durationTime:
            4...4
        }
    }

    /// Namespaces that hold builtins; not variables.
    static let namespaces: Set<String> = ["math", "timestamp", "duration", "latlng", "hashing"]

    func apply(_ args: [Value], _ span: SourceSpan) throws(EvaluationError) -> Value {
        func unsupported() -> EvaluationError {
            EvaluationError.unsupported("\(rawValue)(\(args.map(\.typeName).joined(separator: ", ")))", span)
        }
        switch self {
        case .debug:
            return args[0]
        case .int:
            switch args[0] {
            case .int: return args[0]
            case .float(let f):
                guard f.isFinite, let i = Int64(exactly: f.rounded(.towardZero)) else { throw EvaluationError.overflow(span) }
                return .int(i)
            case .string(let s):
                guard let i = Int64(s.trimmingCharacters(in: .whitespaces)) else {
                    throw EvaluationError(.invalidArgument, "Unable to convert '\(s)' to an integer.", span: span)
                }
                return .int(i)
            default: throw unsupported()
            }
        case .float:
            switch args[0] {
            case .float: return args[0]
            case .int(let i): return .float(Double(i))
            case .string(let s):
                guard let f = Double(s.trimmingCharacters(in: .whitespaces)) else {
                    throw EvaluationError(.invalidArgument, "Unable to convert '\(s)' to a float.", span: span)
                }
                return .float(f)
            default: throw unsupported()
            }
        case .string:
            return .string(try Self.render(args[0], unsupported))
        case .path:
            guard case .string(let s) = args[0] else { throw unsupported() }
            return .path(PathValue(parsing: s))
        case .mathAbs:
            switch args[0] {
            case .int(let i):
                guard i != .min else { throw EvaluationError.overflow(span) }
                return .int(Swift.abs(i))
            case .float(let f): return .float(Swift.abs(f))
            default: throw unsupported()
            }
        case .mathCeil, .mathFloor:
            // The emulator returns float here although the reference documents int.
            guard let x = args[0].numberValue else { throw unsupported() }
            return .float(self == .mathCeil ? x.rounded(.up) : x.rounded(.down))
        case .mathRound:
            guard let x = args[0].numberValue else { throw unsupported() }
            // Half rounds up (toward +∞): round(2.5) == 3, round(-2.5) == -2, as the emulator does.
            let rounded = (x + 0.5).rounded(.down)
            guard rounded.isFinite, let i = Int64(exactly: rounded) else { throw EvaluationError.overflow(span) }
            return .int(i)
        case .mathSqrt:
            guard let x = args[0].numberValue else { throw unsupported() }
            return .float(x.squareRoot())
        case .mathPow:
            guard let x = args[0].numberValue, let y = args[1].numberValue else { throw unsupported() }
            return .float(Foundation.pow(x, y))
        case .mathIsNaN:
            guard let x = args[0].numberValue else { throw unsupported() }
            return .bool(x.isNaN)
        case .timestampDate:
            guard case .int(let y) = args[0], case .int(let m) = args[1], case .int(let d) = args[2] else { throw unsupported() }
            guard Timestamp.isValidDate(year: y, month: m, day: d) else {
                throw EvaluationError(.invalidArgument, "Invalid date \(y)-\(m)-\(d).", span: span)
            }
            return .timestamp(Timestamp(seconds: Timestamp.days(year: y, month: m, day: d) * 86_400))
        case .timestampValue:
            guard case .int(let ms) = args[0] else { throw unsupported() }
            let (seconds, remainder) = ms.quotientAndRemainder(dividingBy: 1000)
            var t = Timestamp(seconds: seconds, nanos: Int32(remainder) * 1_000_000)
            if t.nanos < 0 {
                t.seconds -= 1
                t.nanos += 1_000_000_000
            }
            guard t.isInRange else { throw EvaluationError(.overflow, "Timestamp out of range.", span: span) }
            return .timestamp(t)
        case .durationValue:
            guard case .int(let n) = args[0], case .string(let unit) = args[1] else { throw unsupported() }
            return .duration(try Time.duration(n, unit: unit, span))
        case .durationTime:
            guard case .int(let h) = args[0], case .int(let m) = args[1], case .int(let s) = args[2], case .int(let ns) = args[3] else {
                throw unsupported()
            }
            var total = try Time.duration(h, unit: "h", span)
            total = try Time.add(total, try Time.duration(m, unit: "m", span), span)
            total = try Time.add(total, try Time.duration(s, unit: "s", span), span)
            return .duration(try Time.add(total, try Time.duration(ns, unit: "ns", span), span))
        case .durationAbs:
            guard case .duration(let d) = args[0] else { throw unsupported() }
            return .duration(d.seconds < 0 || d.nanos < 0 ? Time.negated(d) : d)
        case .latlngValue:
            guard let lat = args[0].numberValue, let lng = args[1].numberValue else { throw unsupported() }
            guard (-90...90).contains(lat), (-180...180).contains(lng) else {
                throw EvaluationError(.invalidArgument, "Latitude must be in [-90, 90] and longitude in [-180, 180].", span: span)
            }
            return .latlng(LatLng(latitude: lat, longitude: lng))
        }
    }

    /// `string(x)` as the emulator writes values.
    static func render(_ value: Value, _ unsupported: () -> EvaluationError) throws(EvaluationError) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return formatFloat(f)
        case .null: return "null"
        case .path(let p): return p.description
        case .timestamp(let t): return t.description
        case .duration(let d): return d.description
        default: throw unsupported()
        }
    }

    static func formatFloat(_ f: Double) -> String {
        if f.isNaN { return "NaN" }
        if f.isInfinite { return f < 0 ? "-Infinity" : "Infinity" }
        return "\(f)"
    }
}
