import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit

/// What one authorize request may do: who asks, and whether (and how) the body's own documents count.
struct AuthorizeAccess: Sendable {
    var asker: AccessControl.Asker
    var bodyDocumentsAllowed: Bool
    var layering: BodyDocumentLayering

    /// Today's behaviour, for routes without a caller's identity (`:test`).
    static let open = AuthorizeAccess(asker: .body, bodyDocumentsAllowed: true, layering: .over)
}

extension ServiceRoutes {
    /// Settles who asks an authorize request and which documents its body may add:
    /// - `verified`: `request.auth` is the verified ID token (none: signed out); a body naming
    ///   `auth` is refused (400).
    /// - `trusted-caller`: as verified, but a body's `auth` is taken from callers whose key
    ///   holds `authorize:claims` (refused 403 for others).
    /// - `open`: the body's `auth`, unless an ID token is sent (then the token's).
    /// A body's `documents` count when caller keys are configured and the caller's holds the
    /// `documents` scope, or, without keys, in open mode; when they count, they lie under the
    /// served documents unless the operator chose otherwise.
    func authorizeAccess(_ request: Request, policy: String, data: Data, caller: Caller?) async throws(ServiceError) -> AuthorizeAccess {
        let mode = access.mode(policy: policy, listener: listener)
        var asker = try await access.asker(for: request, mode: mode)
        let keysApply = access.keys != nil && listener == .public
        let documentsAllowed = keysApply ? caller?.scopes.contains(.documents) == true : mode == .open
        let claimsAllowed = keysApply && caller?.scopes.contains(.authorizeClaims) == true
        // In open mode without a token a body names what it likes (and is read once, not twice).
        if mode == .open, documentsAllowed, case .body = asker {
            return AuthorizeAccess(asker: .body, bodyDocumentsAllowed: true, layering: access.configuration.bodyDocuments)
        }
        let fields = Policy.callerSuppliedFields(in: data)
        if fields.auth {
            switch (mode, asker) {
            case (.verified, _):
                throw ServiceError(
                    .badRequest, "request.auth",
                    "this policy takes request.auth from the Authorization header's verified ID token only; remove 'auth' from the body",
                    path: "auth")
            case (_, .verified(let auth?)):
                throw ServiceError(
                    .badRequest, "request.auth",
                    "the request carries both an ID token (uid \(auth.uid)) and a body 'auth'; send one", path: "auth")
            case (.trustedCaller, _) where claimsAllowed:
                asker = .body
            case (.trustedCaller, _):
                throw ServiceError(
                    .forbidden, "request.auth-scope", "a body's 'auth' is accepted only from callers whose API key holds the authorize:claims scope",
                    path: "auth")
            case (.open, _):
                asker = .body
            }
        }
        if fields.documents, !documentsAllowed {
            throw ServiceError(
                .forbidden, "request.documents-scope",
                "this policy reads only the served documents; a body's 'documents' are accepted from callers whose API key holds the documents scope",
                path: "documents")
        }
        return AuthorizeAccess(asker: asker, bodyDocumentsAllowed: documentsAllowed, layering: access.configuration.bodyDocuments)
    }
}
