import Crypto
import CryptoExtras
import Foundation
@testable import RegimenService
import RegimenTestSupport

/// Keys generated for the tests (an RSA key for RS256, a P-256 key for ES256), their JWKS file,
/// and ID tokens signed by hand, so that the tests can also write what no honest signer would
/// (`alg: none`, HS256 keyed with the public key, tampered parts).
struct IDTokenFactory: Sendable {
    static let project = "regimen-test"
    static let issuer = "https://securetoken.google.com/regimen-test"

    let rsa: _RSA.Signing.PrivateKey
    let ec: P256.Signing.PrivateKey
    let rsaKID = "rsa-1", ecKID = "ec-1"

    /// One RSA key for the whole run: generating 2048-bit keys is slow in a debug build.
    static let shared: IDTokenFactory = {
        do {
            return IDTokenFactory(rsa: try _RSA.Signing.PrivateKey(keySize: .bits2048), ec: P256.Signing.PrivateKey())
        } catch {
            fatalError("cannot generate an RSA key: \(error)")
        }
    }()

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// The RSA key's JWK under `kid`.
    static func jwk(rsa key: _RSA.Signing.PublicKey, kid: String) -> [String: Any] {
        let primitives = (try? key.getKeyPrimitives())
        return ["kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
                "n": base64URL(primitives?.modulus ?? Data()), "e": base64URL(primitives?.publicExponent ?? Data())]
    }

    static func jwk(ec key: P256.Signing.PublicKey, kid: String) -> [String: Any] {
        let raw = key.rawRepresentation  // x ‖ y, 32 bytes each
        return ["kty": "EC", "alg": "ES256", "use": "sig", "crv": "P-256", "kid": kid,
                "x": base64URL(raw.prefix(32)), "y": base64URL(raw.suffix(32))]
    }

    /// The JWKS file text of both keys.
    var keySet: Data {
        Self.json(["keys": [Self.jwk(rsa: rsa.publicKey, kid: rsaKID), Self.jwk(ec: ec.publicKey, kid: ecKID)]])
    }

    /// Claims of a Firebase ID token for `uid` at `now`, valid for an hour.
    static func claims(uid: String, now: Date, extra: [String: Any] = [:]) -> [String: Any] {
        let seconds = Int(now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": project, "sub": uid, "user_id": uid, "iat": seconds - 60, "auth_time": seconds - 120, "exp": seconds + 3600,
            "firebase": ["sign_in_provider": "password", "identities": ["email": ["\(uid)@example.com"]]],
        ]
        for (key, value) in extra { claims[key] = value }
        return claims
    }

    enum Signature { case rs256(_RSA.Signing.PrivateKey), es256(P256.Signing.PrivateKey), hs256(Data), none }

    /// A token with exactly this header and these claims, signed as asked.
    static func token(header: [String: Any], claims: [String: Any], signature: Signature) -> String {
        let input = base64URL(json(header)) + "." + base64URL(json(claims))
        let bytes = Data(input.utf8)
        let signed: Data
        switch signature {
        case .rs256(let key): signed = (try? key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation) ?? Data()
        case .es256(let key): signed = (try? key.signature(for: bytes).rawRepresentation) ?? Data()
        case .hs256(let secret): signed = Data(HMAC<SHA256>.authenticationCode(for: bytes, using: SymmetricKey(data: secret)))
        case .none: signed = Data()
        }
        return input + "." + base64URL(signed)
    }

    func rs256(_ claims: [String: Any], kid: String? = nil) -> String {
        Self.token(header: ["alg": "RS256", "typ": "JWT", "kid": kid ?? rsaKID], claims: claims, signature: .rs256(rsa))
    }

    func es256(_ claims: [String: Any]) -> String {
        Self.token(header: ["alg": "ES256", "typ": "JWT", "kid": ecKID], claims: claims, signature: .es256(ec))
    }

    /// Every kind of token the issue names, for `uid` at `now`: the token and the refusal id
    /// it must get (`nil`: it must give the identity `uid`).
    enum Kind: String, CaseIterable, Sendable {
        case validRS256, validES256, expired, notYetValid, wrongIssuer, wrongAudience, unknownKID, algorithmNone, hs256WithPublicKey
        case tamperedPayload, tamperedSignature, missingSubject, longSubject

        var refusal: String? {
            switch self {
            case .validRS256, .validES256: nil
            case .expired: "token.expired"
            case .notYetValid: "token.not-yet-valid"
            case .wrongIssuer: "token.issuer"
            case .wrongAudience: "token.audience"
            case .unknownKID: "token.kid-unknown"
            case .algorithmNone, .hs256WithPublicKey: "token.algorithm"
            case .tamperedPayload, .tamperedSignature: "token.signature"
            case .missingSubject, .longSubject: "token.subject"
            }
        }
    }

    func token(_ kind: Kind, uid: String, now: Date, extra: [String: Any] = [:]) -> String {
        var claims = Self.claims(uid: uid, now: now, extra: extra)
        let seconds = Int(now.timeIntervalSince1970)
        switch kind {
        case .validRS256: return rs256(claims)
        case .validES256: return es256(claims)
        case .expired:
            claims["exp"] = seconds - 3600
            claims["iat"] = seconds - 7200
            return rs256(claims)
        case .notYetValid:
            claims["nbf"] = seconds + 3600
            return es256(claims)
        case .wrongIssuer:
            claims["iss"] = "https://securetoken.google.com/another-project"
            return rs256(claims)
        case .wrongAudience:
            claims["aud"] = "another-project"
            return es256(claims)
        case .unknownKID: return rs256(claims, kid: "rotated-away")
        case .algorithmNone:
            return Self.token(header: ["alg": "none", "typ": "JWT", "kid": rsaKID], claims: claims, signature: .none)
        case .hs256WithPublicKey:
            return Self.token(header: ["alg": "HS256", "typ": "JWT", "kid": rsaKID], claims: claims, signature: .hs256(Data(rsa.publicKey.pemRepresentation.utf8)))
        case .tamperedPayload:
            // A signed token for `uid` whose payload is swapped for one naming an administrator.
            let signed = rs256(claims).split(separator: ".").map(String.init)
            var forged = claims
            forged["admin"] = true
            return [signed[0], Self.base64URL(Self.json(forged)), signed[2]].joined(separator: ".")
        case .tamperedSignature:
            var parts = es256(claims).split(separator: ".").map(String.init)
            var signature = Array(parts[2])
            let middle = signature.count / 2
            signature[middle] = signature[middle] == "A" ? "B" : "A"
            parts[2] = String(signature)
            return parts.joined(separator: ".")
        case .missingSubject:
            claims.removeValue(forKey: "sub")
            return rs256(claims)
        case .longSubject:
            claims["sub"] = String(repeating: "u", count: 129)
            return rs256(claims)
        }
    }
}
