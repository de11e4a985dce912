import Foundation

/// Free and namespaced functions of the language (`int()`, `math.abs()`, `duration.value()`, …).
enum Builtin: String, Sendable, CaseIterable {
    case int, float, string, path, debug
    case mathAbs = "math.abs", mathCeil = "math.ceil", mathFloor = "math.floor", mathRound = "math.round"
    case mathSqrt = "math.sqrt", mathPow = "math.pow", mathIsNaN = "math.isNaN"
    case timestampDate = "timestamp.date", timestampValue = "timestamp.value"
    case durationValue = "duration.value", durationTime = "duration.time", durationAbs = "duration.abs"
    case latlngValue = "latlng.value"
    case hashingCrc32 = "hashing.crc32", hashingCrc32c = "hashing.crc32c", hashingMd5 = "hashing.md5", hashingSha256 = "hashing.sha256"

    var arity: ClosedRange<Int> {
        switch self {
        case .int, .float, .string, .path, .debug, .mathAbs, .mathCeil, .mathFloor, .mathRound, .mathSqrt,
             .mathIsNaN, .timestampValue, .durationAbs, .hashingCrc32, .hashingCrc32c, .hashingMd5, .hashingSha256:
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
            case .float(let f): return .int(Self.javaLong(f))
            case .string(let s):
                // Java's Long.parseLong: no surrounding spaces, no decimals, no hex.
                guard let i = Int64(s) else { throw EvaluationError.conversion(s, from: "string", to: "int", span) }
                return .int(i)
            default: throw unsupported()
            }
        case .float:
            switch args[0] {
            case .float: return args[0]
            case .int(let i): return .float(Double(i))
            case .string(let s):
                // Java's Double.parseDouble trims surrounding whitespace and reads NaN and Infinity.
                let trimmed = Strings.trimmedJava(s)
                let value: Double? = switch trimmed {
                case "NaN": .nan
                case "Infinity", "+Infinity": .infinity
                case "-Infinity": -.infinity
                default: trimmed.lowercased().contains("n") ? nil : Double(trimmed)
                }
                guard let value else { throw EvaluationError.conversion(s, from: "string", to: "float", span) }
                return .float(value)
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
                // Java's Math.abs: the smallest long is its own absolute value.
                return .int(i == .min ? i : Swift.abs(i))
            case .float(let f): return .float(Swift.abs(f))
            default: throw unsupported()
            }
        case .mathCeil, .mathFloor:
            // The emulator returns float here although the reference documents int.
            guard let x = args[0].numberValue else { throw unsupported() }
            return .float(self == .mathCeil ? x.rounded(.up) : x.rounded(.down))
        case .mathRound:
            guard let x = args[0].numberValue else { throw unsupported() }
            // Java's Math.round: half up (toward +∞), saturating at the long bounds, NaN → 0.
            // `floor(x + 0.5)` would round in the addition (0.49999999999999994 + 0.5 is 1.0, and
            // 2^52 + 1 + 0.5 is not representable): compare the fraction, which is exact.
            let floor = x.rounded(.down)
            return .int(Self.javaLong(x - floor >= 0.5 ? floor + 1 : floor))
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
            guard (1...9999).contains(y) else {
                throw EvaluationError(.invalidArgument, "Timestamp should be between 0001-01-01T00.00.00Z and 9999-12-31T23.59.59Z. year: \(y).", span: span)
            }
            guard Timestamp.isValidDate(year: y, month: m, day: d) else {
                throw EvaluationError(.invalidArgument, "Date is not valid. year: \(y), month: \(m) day: \(d).", span: span)
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
            guard t.isInRange else { throw Time.invalidTimestamp(span) }
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
                throw EvaluationError(.invalidArgument, "Latitude should be in [-90,90] range and longitude should be in [-180,180] range. latitude: \(Strings.javaDouble(lat)), longitude: \(Strings.javaDouble(lng)).", span: span)
            }
            return .latlng(LatLng(latitude: lat, longitude: lng))
        case .hashingCrc32, .hashingCrc32c, .hashingMd5, .hashingSha256:
            let data: [UInt8]
            switch args[0] {
            case .string(let s): data = Array(s.utf8)
            case .bytes(let b): data = b
            default: throw unsupported()
            }
            switch self {
            case .hashingCrc32: return .bytes(Hashing.crc32(data))
            case .hashingCrc32c: return .bytes(Hashing.crc32c(data))
            case .hashingMd5: return .bytes(Hashing.md5(data))
            default: return .bytes(Hashing.sha256(data))
            }
        }
    }

    /// `string(x)` as the emulator writes values (floats as Java's `Double.toString`).
    static func render(_ value: Value, _ unsupported: () -> EvaluationError) throws(EvaluationError) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return Strings.javaDouble(f)
        case .null: return "null"
        case .path(let p): return p.description
        default: throw unsupported()
        }
    }

    static func formatFloat(_ f: Double) -> String { Strings.javaDouble(f) }

    /// Java's `(long) d`: truncation toward zero, saturating at the bounds, NaN → 0.
    static func javaLong(_ f: Double) -> Int64 {
        if f.isNaN { return 0 }
        if f >= 9.223372036854775807e18 { return .max }
        if f <= -9.223372036854775808e18 { return .min }
        return Int64(f.rounded(.towardZero))
    }
}
