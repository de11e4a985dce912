import Foundation
import JWTKit
import RegimenKit
import Synchronization

/// Verifies `Authorization: Bearer` ID tokens as Firebase documents for its ID tokens: the
/// header names an accepted algorithm (RS256, or ES256) and a `kid` of the key set, the
/// signature verifies with that key, `exp` is in the future, `iat` and `auth_time` in the past,
/// `nbf` (when present) passed, `aud` the project, `iss` the project's issuer, and `sub` a
/// non-empty string of at most 128 characters; every time check allows the configured clock
/// skew. The identity is `request.auth`: `uid` = `sub`, `token` = every claim.
///
/// The key set is a JWKS file, read at start; a token naming an unknown `kid` has the file read
/// again (keys rotate), at most once per refresh interval (once per retry delay after a read that
/// failed), and a file that no longer reads keeps the keys that did.
final class IDTokenVerifier: Sendable {
    /// The algorithms ID tokens are signed with here. `none` and HMAC (`HS256`, whose "secret"
    /// an attacker may take from the public key) are never accepted.
    static let acceptedAlgorithms: Set = ["RS256", "ES256"]
    /// The longest token read; real ID tokens are about 1 KiB.
    static let maximumTokenBytes = 16 * 1024
    /// The longest `sub` Firebase issues.
    static let maximumSubjectLength = 128

    let settings: IDTokenSettings
    private let keys: Mutex<KeySet>
    /// When the keys were last read or fetched, and whether that failed (`nil`: never).
    private let lastRefresh: Mutex<RefreshAttempt?>

    /// One read or fetch of the key set.
    private struct RefreshAttempt {
        var at: ContinuousClock.Instant
        var failed: Bool
    }

    /// One reading of the key file: its keys by `kid` with their algorithms, and the JWTKit
    /// collection that verifies with them (filled on first use: JWTKit's collection is an actor).
    final class KeySet: Sendable {
        let jwks: JWKS
        let algorithms: [String: String]
        let collection = JWTKeyCollection()
        let filled = Atomic<Bool>(false)
        /// When a fetched key set should be fetched again (its `Cache-Control: max-age`); `nil`
        /// for a file, read again only for an unknown `kid`.
        let staleAt: ContinuousClock.Instant?

        init(jwks: JWKS, algorithms: [String: String], staleAt: ContinuousClock.Instant? = nil) {
            self.jwks = jwks
            self.algorithms = algorithms
            self.staleAt = staleAt
        }

        /// No keys yet: a key set URL before its first fetch.
        static let empty = KeySet(jwks: JWKS(keys: []), algorithms: [:], staleAt: ContinuousClock.now)

        func verifier() async throws -> JWTKeyCollection {
            if !filled.load(ordering: .acquiring) {
                try await collection.add(jwks: jwks)
                filled.store(true, ordering: .releasing)
            }
            return collection
        }
    }

    /// Reads the key set.
    /// - Throws: ``AccessConfigurationError`` naming the file and what is wrong with it.
    init(_ settings: IDTokenSettings) throws(AccessConfigurationError) {
        self.settings = settings
        if settings.keySetURL != nil {
            // Fetched by the first token: start-up does not wait for the network.
            keys = Mutex(KeySet.empty)
            lastRefresh = Mutex(nil)
        } else {
            keys = Mutex(try Self.read(settings.keySetFile))
            lastRefresh = Mutex(RefreshAttempt(at: ContinuousClock.now, failed: false))
        }
    }

    /// The key set in `file`: every key needs a `kid` and must be an RSA key (RS256) or a P-256
    /// EC key (ES256) whose public numbers make a key.
    static func read(_ file: URL) throws(AccessConfigurationError) -> KeySet {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            if let size = attributes[.size] as? Int, size > 1 << 20 { throw AccessConfigurationError("\(file.path): larger than 1 MiB") }
            data = try Data(contentsOf: file)
        } catch let error as AccessConfigurationError {
            throw error
        } catch {
            throw AccessConfigurationError("\(file.path): cannot be read (\(error.localizedDescription))")
        }
        return try parse(data, source: file.path)
    }

    /// The key set in `data`, read from `source` (named in the errors).
    static func parse(_ data: Data, source: String, staleAt: ContinuousClock.Instant? = nil) throws(AccessConfigurationError) -> KeySet {
        var jwks: JWKS
        do {
            jwks = try JSONDecoder().decode(JWKS.self, from: data)
        } catch {
            throw AccessConfigurationError("\(source): not a JSON Web Key Set ({\"keys\": [...]}): \(error)")
        }
        var algorithms: [String: String] = [:]
        for index in jwks.keys.indices {
            let key = jwks.keys[index]
            let place = "\(source): keys[\(index)]"
            guard let kid = key.keyIdentifier?.string, !kid.isEmpty else { throw AccessConfigurationError("\(place) has no 'kid'") }
            guard algorithms[kid] == nil else { throw AccessConfigurationError("\(place): 'kid' \(kid) appears twice") }
            let algorithm: String
            switch key.keyType {
            case .rsa:
                algorithm = "RS256"
                guard let modulus = key.modulus, let exponent = key.exponent, (try? Insecure.RSA.PublicKey(modulus: modulus, exponent: exponent)) != nil else {
                    throw AccessConfigurationError("\(place) (\(kid)): 'n' and 'e' do not make an RSA public key")
                }
            case .ecdsa:
                algorithm = "ES256"
                guard key.curve?.rawValue == "P-256", let x = key.x, let y = key.y, (try? ES256PublicKey(parameters: (x: x, y: y))) != nil else {
                    throw AccessConfigurationError("\(place) (\(kid)): ES256 keys are EC keys on P-256 with 'x' and 'y'")
                }
            default:
                throw AccessConfigurationError("\(place) (\(kid)): only RSA (RS256) and EC P-256 (ES256) keys verify ID tokens")
            }
            if let stated = key.algorithm?.rawValue, stated != algorithm {
                throw AccessConfigurationError("\(place) (\(kid)): 'alg' \(stated) does not suit its key type; expected \(algorithm)")
            }
            jwks.keys[index].algorithm = JWK.Algorithm(rawValue: algorithm)
            algorithms[kid] = algorithm
        }
        guard !algorithms.isEmpty else { throw AccessConfigurationError("\(source): holds no keys") }
        return KeySet(jwks: jwks, algorithms: algorithms, staleAt: staleAt)
    }

    /// The keys, read again when the refresh interval has passed since the last read (the retry
    /// delay, when that read failed); a file that no longer reads keeps the keys that did (fail
    /// closed: tokens of its new keys are refused).
    private func refreshedKeys() async -> KeySet {
        let now = ContinuousClock.now
        let due = lastRefresh.withLock { last in
            if let last {
                let wait = last.failed ? min(settings.retryAfterFailure, settings.refreshInterval) : settings.refreshInterval
                if now - last.at < wait { return false }
            }
            // Counted as failed until it succeeds, so concurrent callers wait for the retry delay.
            last = RefreshAttempt(at: now, failed: true)
            return true
        }
        guard due else { return keys.withLock { $0 } }
        let fresh: KeySet?
        if let url = settings.keySetURL {
            fresh = try? await KeySetFetcher.fetch(url, timeout: settings.fetchTimeout)
        } else {
            fresh = try? Self.read(settings.keySetFile)
        }
        guard let fresh else { return keys.withLock { $0 } }
        keys.withLock { $0 = fresh }
        lastRefresh.withLock { last in
            if last?.at == now { last?.failed = false }
        }
        return fresh
    }

    /// The identity a token proves at `now`, or why it proves none.
    func identity(token: String, now: Date = Date()) async -> Result<AuthContext, IdentityRefusal> {
        guard token.utf8.count <= Self.maximumTokenBytes else { return .failure(IdentityRefusal("token.malformed", "the ID token is longer than \(Self.maximumTokenBytes) bytes")) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URLDecoded(parts[0]),
              let header = try? JSONDecoder().decode([String: ClaimValue].self, from: headerData)
        else {
            return .failure(IdentityRefusal("token.malformed", "the ID token is not a JWT (header.payload.signature, base64url)"))
        }
        guard case .string(let algorithm)? = header["alg"], Self.acceptedAlgorithms.contains(algorithm) else {
            let named = header["alg"].map { "\($0.value)" } ?? "none"
            return .failure(IdentityRefusal("token.algorithm", "the ID token's 'alg' is \(named); only RS256 and ES256 signatures are accepted"))
        }
        guard case .string(let kid)? = header["kid"] else {
            return .failure(IdentityRefusal("token.kid", "the ID token's header names no 'kid'"))
        }
        var keySet = keys.withLock { $0 }
        if keySet.algorithms[kid] == nil || keySet.staleAt.map({ ContinuousClock.now >= $0 }) == true { keySet = await refreshedKeys() }
        guard let keyAlgorithm = keySet.algorithms[kid] else {
            return .failure(IdentityRefusal("token.kid-unknown", "no key with 'kid' \(kid) verifies ID tokens here"))
        }
        guard keyAlgorithm == algorithm else {
            return .failure(IdentityRefusal("token.algorithm", "the ID token says \(algorithm), but key \(kid) is an \(keyAlgorithm) key"))
        }
        let payload: IDTokenPayload
        do {
            payload = try await keySet.verifier().verify(token, as: IDTokenPayload.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            return .failure(IdentityRefusal("token.signature", "the ID token's signature does not verify with key \(kid)"))
        } catch {
            return .failure(IdentityRefusal("token.malformed", "the ID token cannot be read: its payload is not a JSON object of claims"))
        }
        return check(payload.claims, now: now).map { subject in
            let token = OrderedDictionary(uniqueKeysWithValues: payload.claims.keys.sorted().compactMap { key in payload.claims[key].map { (key, $0.value) } })
            return AuthContext(uid: subject, token: token)
        }
    }

    /// Firebase's claim checks; the subject when they pass.
    func check(_ claims: [String: ClaimValue], now: Date) -> Result<String, IdentityRefusal> {
        let now = now.timeIntervalSince1970
        let skew = Double(settings.clockSkew.components.seconds) + Double(settings.clockSkew.components.attoseconds) / 1e18
        guard let expiry = claims["exp"]?.seconds else { return .failure(IdentityRefusal("token.expiry", "the ID token has no numeric 'exp'")) }
        guard now <= expiry + skew else { return .failure(IdentityRefusal("token.expired", "the ID token expired at \(Self.time(expiry))")) }
        if let notBefore = claims["nbf"] {
            guard let seconds = notBefore.seconds else { return .failure(IdentityRefusal("token.not-yet-valid", "the ID token's 'nbf' is not a number")) }
            guard seconds <= now + skew else { return .failure(IdentityRefusal("token.not-yet-valid", "the ID token is not valid before \(Self.time(seconds))")) }
        }
        guard let issuedAt = claims["iat"]?.seconds else { return .failure(IdentityRefusal("token.issued-at", "the ID token has no numeric 'iat'")) }
        guard issuedAt <= now + skew else { return .failure(IdentityRefusal("token.issued-at", "the ID token says it was issued in the future (\(Self.time(issuedAt)))")) }
        guard let authTime = claims["auth_time"]?.seconds else { return .failure(IdentityRefusal("token.auth-time", "the ID token has no numeric 'auth_time'")) }
        guard authTime <= now + skew else { return .failure(IdentityRefusal("token.auth-time", "the ID token's sign-in ('auth_time') is in the future")) }
        let audienceMatches: Bool
        switch claims["aud"] {
        case .string(let audience)?: audienceMatches = audience == settings.audience
        case .list(let audiences)?: audienceMatches = audiences == [.string(settings.audience)]
        default: audienceMatches = false
        }
        guard audienceMatches else { return .failure(IdentityRefusal("token.audience", "the ID token's 'aud' is not '\(settings.audience)'")) }
        guard case .string(let issuer)? = claims["iss"], issuer == settings.issuer else {
            return .failure(IdentityRefusal("token.issuer", "the ID token's 'iss' is not '\(settings.issuer)'"))
        }
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else {
            return .failure(IdentityRefusal("token.subject", "the ID token has no 'sub' (the user's uid)"))
        }
        guard subject.count <= Self.maximumSubjectLength else {
            return .failure(IdentityRefusal("token.subject", "the ID token's 'sub' is longer than \(Self.maximumSubjectLength) characters"))
        }
        return .success(subject)
    }

    private static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
    }

    /// Base64url without padding, as JWTs are written.
    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
