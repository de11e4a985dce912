import RegimenKit

extension OpenAPIDocument {
    /// The credentials the service reads: the end user's Firebase ID token on authorize, and
    /// the operator's admin token on the private listener's admin routes.
    static var securitySchemes: Value {
        .map([
            "firebaseIdToken": .map([
                "type": .string("http"), "scheme": .string("bearer"), "bearerFormat": .string("JWT"),
                "description": .string(
                    "A Firebase ID token (RS256 or ES256), verified against the service's JWKS (a file, or a URL such as Google's, fetched again after its max-age or on an unknown kid): issuer, audience, exp, iat, nbf and auth_time with the configured clock skew. request.auth is built from its claims. In identity mode verified it is the only source of request.auth; without one the request is signed out."),
            ]),
            "callerKey": .map([
                "type": .string("apiKey"), "in": .string("header"), "name": .string("Regimen-Api-Key"),
                "description": .string(
                    "A caller's API key (--caller-keys: each key's SHA-256, its scopes plans, authorize, authorize:claims, test, documents, admin, and its rate limit; admin lets a key call the private listener's /v1/admin/* in place of the admin token). While keys are configured, a public route group the operator did not open (--open-routes) needs a key holding its scope: none or an unknown key is 401, a key without the scope 403, a key over its rate limit 429 with Retry-After."),
            ]),
            "clientCertificate": .map([
                "type": .string("mutualTLS"),
                "description": .string(
                    "A TLS client certificate issued by the service's client CA (--tls-client-ca; required or optional by --tls-client-certificates). The caller key entry whose subject names the certificate's subject is the caller, with its scopes, as an API key would be."),
            ]),
            "adminToken": .map([
                "type": .string("http"), "scheme": .string("bearer"),
                "description": .string("The operator's admin token (--admin-token-file), on the private listener only; a caller key holding the admin scope may be sent instead."),
            ]),
        ])
    }

    /// Which credentials an operation takes; `nil` for none. An empty requirement (`{}`) says
    /// the credential is optional (open mode, or a signed-out request).
    static func security(_ operation: Operation) -> Value? {
        if operation.path.hasPrefix("/v1/admin/") { return .list([.map(["adminToken": .list([])]), .map(["callerKey": .list([])])]) }
        guard isPublicAPI(operation) else { return nil }
        let key: Value = .map(["callerKey": .list([])]), certificate: Value = .map(["clientCertificate": .list([])]), none: Value = .map([:])
        if operation.path.hasSuffix(":authorize") {
            let token: Value = .map(["firebaseIdToken": .list([])])
            return .list([
                .map(["callerKey": .list([]), "firebaseIdToken": .list([])]), .map(["clientCertificate": .list([]), "firebaseIdToken": .list([])]),
                key, certificate, token, none,
            ])
        }
        return .list([key, certificate, none])
    }

    /// The public listener's API: what caller keys guard.
    static func isPublicAPI(_ operation: Operation) -> Bool {
        operation.path.hasPrefix("/v1/") && !operation.path.hasPrefix("/v1/admin/") && !operation.path.hasPrefix("/v1/playground/")
    }

    /// The statuses caller keys add to the public API's operations (401 also for a refused ID token).
    static func callerStatuses(_ operation: Operation) -> [Int] {
        isPublicAPI(operation) ? [401, 403, 429] : []
    }
}
