import JWTKit
import RegimenKit

/// One JSON value of an ID token's payload, kept whole so that every claim (custom claims,
/// `firebase.sign_in_provider`, …) reaches `request.auth.token` as the token carried it.
enum ClaimValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case list([ClaimValue])
    case object([String: ClaimValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ClaimValue].self) {
            self = .list(value)
        } else {
            self = .object(try container.decode([String: ClaimValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The claim as the rules see it; an object's keys in sorted order (same token, same bytes).
    var value: Value {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .float(value)
        case .string(let value): .string(value)
        case .list(let values): .list(values.map(\.value))
        case .object(let fields): .map(OrderedDictionary(uniqueKeysWithValues: fields.keys.sorted().compactMap { key in fields[key].map { (key, $0.value) } }))
        }
    }

    /// A number claim in seconds since 1970 (`exp`, `iat`, …).
    var seconds: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value) where value.isFinite: value
        default: nil
        }
    }
}

/// An ID token's payload: every claim. Its signature is checked by JWTKit; its claims by
/// ``IDTokenVerifier`` (with the service's clock and skew, and a reason for each refusal).
struct IDTokenPayload: JWTPayload {
    var claims: [String: ClaimValue]

    init(claims: [String: ClaimValue]) { self.claims = claims }

    init(from decoder: any Decoder) throws {
        claims = try decoder.singleValueContainer().decode([String: ClaimValue].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(claims)
    }

    /// Nothing here: the claims are checked after the signature, by ``IDTokenVerifier``, which
    /// names the failing claim in its refusal.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
