import Foundation
import HTTPTypes
import Hummingbird
import Logging
import RegimenKit

/// The service's answer to "who may ask, and as whom", built once at start: the identity mode
/// (per policy) and the ID-token verifier.
package final class AccessControl: Sendable {
    package let configuration: AccessConfiguration
    /// The service's identity mode (after the loopback default).
    let identityMode: IdentityMode
    let verifier: IDTokenVerifier?
    /// The callers' keys, when configured.
    let keys: CallerKeys?
    let limiter = RateLimiter()
    /// The public listener's TLS, when configured.
    package let tls: ReloadableTLS?

    /// - Throws: ``AccessConfigurationError`` when no mode was chosen for a public listener
    ///   reachable from other machines, or the ID-token keys or caller keys do not read.
    init(_ configuration: AccessConfiguration, publicHost: String, logger: Logger) throws(AccessConfigurationError) {
        self.configuration = configuration
        identityMode = try configuration.resolvedIdentityMode(publicHost: publicHost)
        verifier = try configuration.idTokens.map { settings throws(AccessConfigurationError) in try IDTokenVerifier(settings) }
        keys = try configuration.callerKeys.map { file throws(AccessConfigurationError) in try CallerKeys(file: file, logger: logger) }
        tls = try configuration.tls.map { files throws(AccessConfigurationError) in try ReloadableTLS(files) }
    }

    /// The middleware identifying callers on the public listener, when keys are configured.
    func callerAuthentication(for listener: Listener) -> CallerAuthentication? {
        guard listener == .public, let keys else { return nil }
        return CallerAuthentication(
            keys: keys, openGroups: configuration.openRouteGroups, limiter: limiter, defaultRate: configuration.defaultRate,
            clientCertificates: configuration.tls?.clientCA != nil)
    }

    /// Where `request.auth` comes from for one authorize request.
    enum Asker: Sendable {
        /// From the body (open mode, or a trusted caller's claims).
        case body
        /// The verified identity (`nil`: no token, a signed-out request), whatever the body says.
        case verified(AuthContext?)
    }

    /// The identity mode of `policy` on `listener`. The private listener is the operator's (as
    /// the simulator is): bodies name their `auth` there.
    func mode(policy: String, listener: Listener) -> IdentityMode {
        listener == .private ? .open : configuration.policyIdentityModes[policy] ?? identityMode
    }

    /// Who asks: the verified ID token of `Authorization: Bearer` when there is one, else the
    /// body (open mode) or nobody (verified mode; trusted callers' bodies are checked with the body).
    /// - Throws: 401 with the token's fault, before any decision.
    func asker(for request: Request, mode: IdentityMode) async throws(ServiceError) -> Asker {
        guard let authorization = request.headers[.authorization] else {
            return mode == .open ? .body : .verified(nil)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw IdentityRefusal("token.scheme", "Authorization must be 'Bearer <Firebase ID token>'").serviceError
        }
        guard let verifier else {
            throw IdentityRefusal("token.unverifiable", "this service verifies no ID tokens (no --id-token-jwks); send the request without Authorization").serviceError
        }
        switch await verifier.identity(token: String(parts[1]).trimmingCharacters(in: .whitespaces)) {
        case .success(let auth): return .verified(auth)
        case .failure(let refusal): throw refusal.serviceError
        }
    }
}
