import RegimenKit

extension OpenAPIDocument {
    /// The credentials the service reads: the end user's Firebase ID token on authorize, and
    /// the operator's admin token on the private listener's admin routes.
    static var securitySchemes: Value {
        .map([
            "firebaseIdToken": .map([
                "type": .string("http"), "scheme": .string("bearer"), "bearerFormat": .string("JWT"),
                "description": .string(
                    "A Firebase ID token (RS256 or ES256), verified against the service's JWKS: issuer, audience, exp, iat, nbf and auth_time with the configured clock skew. request.auth is built from its claims. In identity mode verified it is the only source of request.auth; without one the request is signed out."),
            ]),
            "adminToken": .map([
                "type": .string("http"), "scheme": .string("bearer"),
                "description": .string("The operator's admin token (--admin-token-file), on the private listener only."),
            ]),
        ])
    }

    /// Which credentials an operation takes; `nil` for none. An empty requirement (`{}`) says
    /// the credential is optional (open mode, or a signed-out request).
    static func security(_ operation: Operation) -> Value? {
        if operation.path.hasSuffix(":authorize") { return .list([.map(["firebaseIdToken": .list([])]), .map([:])]) }
        if operation.path.hasPrefix("/v1/admin/") { return .list([.map(["adminToken": .list([])])]) }
        return nil
    }
}
