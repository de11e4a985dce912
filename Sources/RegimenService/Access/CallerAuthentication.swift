import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The public listener's routes by what a caller needs to call them.
package enum RouteGroup: String, Sendable, CaseIterable, Hashable {
    /// Planner and tracker routes, `/v1/rules`.
    case plans
    /// Authorize, and the list of policies.
    case authorize
    /// A policy's tests.
    case test

    /// The scope a key needs for the group.
    var scope: CallerScope {
        switch self {
        case .plans: .plans
        case .authorize: .authorize
        case .test: .test
        }
    }

    /// The group of a request path; `nil` for what every caller may reach (health, metrics,
    /// the OpenAPI document, the page).
    static func of(_ path: String) -> RouteGroup? {
        guard path.hasPrefix("/v1/") else { return nil }
        if path == "/v1/policies" { return .authorize }
        if path.hasPrefix("/v1/policies/") {
            let decoded = path.removingPercentEncoding ?? path
            return decoded.hasSuffix(":test") ? .test : .authorize
        }
        return .plans
    }
}

extension HTTPField.Name {
    /// A caller's API key.
    static let regimenAPIKey = Self("Regimen-Api-Key")!
}

/// On the public listener, when caller keys are configured: identifies the caller by its
/// `Regimen-Api-Key`, refuses a route group it holds no scope for (unless the operator opened
/// the group), and takes a token from its rate limit.
struct CallerAuthentication: RouterMiddleware {
    typealias Context = ServiceContext

    let keys: CallerKeys
    let openGroups: Set<RouteGroup>
    let limiter: RateLimiter
    /// The rate limit of keys whose entry names none; `nil`: unlimited.
    let defaultRate: RateLimit?
    /// Whether clients may present certificates (`--tls-client-ca`): then a certificate's
    /// subject identifies the caller when no API key is sent.
    var clientCertificates = false

    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        let group = RouteGroup.of(request.uri.path)
        var context = context
        if let presented = request.headers[.regimenAPIKey] {
            guard let caller = keys.caller(presenting: presented) else {
                throw ServiceError(.unauthorized, "caller.key-unknown", "the Regimen-Api-Key is not a key of this service", path: "Regimen-Api-Key")
            }
            context.caller = caller
        } else if clientCertificates, let channel = context.channel, let subject = await ClientCertificate.subject(on: channel) {
            // Mutual TLS: the handshake validated the certificate; its subject names the caller.
            guard let caller = keys.caller(certificateSubject: subject) else {
                throw ServiceError(.unauthorized, "caller.certificate-unknown", "no caller key entry names the client certificate '\(subject)'", path: "TLS client certificate")
            }
            context.caller = caller
        }
        if let group, !openGroups.contains(group) {
            guard let caller = context.caller else {
                throw ServiceError(.unauthorized, "caller.key-missing", "\(group.rawValue) routes need a caller key: send Regimen-Api-Key", path: "Regimen-Api-Key")
            }
            guard caller.scopes.contains(group.scope) else {
                throw ServiceError(.forbidden, "caller.scope", "key '\(caller.id)' does not hold the \(group.scope.rawValue) scope", path: "Regimen-Api-Key")
            }
        }
        if let caller = context.caller, let limit = caller.rate ?? defaultRate, let wait = limiter.take(caller.id, limit: limit) {
            var error = ServiceError(.tooManyRequests, "caller.rate-limit", "key '\(caller.id)' is over its rate limit; retry after Retry-After seconds")
            error.retryAfter = max(1, Int(wait.rounded(.up)))
            throw error
        }
        return try await next(request, context)
    }
}
