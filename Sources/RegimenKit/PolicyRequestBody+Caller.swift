package import Foundation
import RegimenSecurity

// What a service changes in an authorize body on behalf of its operator: who asks (a verified
// ID token's identity instead of a body's `auth`) and which documents `get()` reads (the served
// ones, with a body's own laid under them, or none of the body's).

/// Where a body's own `documents` go beside the documents a service serves.
package enum BodyDocumentLayering: String, Sendable, CaseIterable {
    /// The served documents win: a body may add documents the service does not hold, never
    /// replace or remove one it does.
    case under
    /// The body's documents win (the service's behaviour before caller authentication).
    case over
}

/// The keys of an authorize body a service may refuse: whether any request names `auth`, and
/// whether the body or any request names `documents`.
package struct CallerSuppliedFields: Sendable, Hashable {
    package var auth = false
    package var documents = false
}

extension Policy {
    /// ``requests(from:name:documents:)`` with the body's documents laid `layering` the
    /// `served` ones.
    package func requests(
        from data: Data, name: String = "<body>", served: DocumentStore, layering: BodyDocumentLayering
    ) throws(RegimenError) -> PolicyRequestBody {
        switch layering {
        case .over:
            return try requests(from: data, name: name, documents: served)
        case .under:
            // Read with no base, so that a body's `path: null` removes only its own documents;
            // then the served ones are laid over each request's.
            var inner = try requests(from: data, name: name, documents: DocumentStore()).body
            for index in inner.items.indices {
                inner.items[index].documents = inner.items[index].documents.merging(served)
            }
            return PolicyRequestBody(body: inner)
        }
    }

    /// Which of `auth` and `documents` a body names (a single request, a list, or
    /// `{requests, documents}`), read as the body is. A body that cannot be read names neither:
    /// reading it for its requests then fails with the located problem.
    package static func callerSuppliedFields(in data: Data, name: String = "<body>") -> CallerSuppliedFields {
        guard let root = try? RequestDocument.value(data, name: name) else { return CallerSuppliedFields() }
        var fields = CallerSuppliedFields()
        func visit(request: Value) {
            guard case .map(let keys) = request else { return }
            if keys["auth"] != nil { fields.auth = true }
            if keys["documents"] != nil { fields.documents = true }
        }
        switch root {
        case .list(let requests):
            requests.forEach(visit)
        case .map(let keys) where keys["requests"] != nil:
            if keys["documents"] != nil { fields.documents = true }
            if case .list(let requests) = keys["requests"] { requests.forEach(visit) }
        default:
            visit(request: root)
        }
        return fields
    }
}

extension PolicyRequestBody {
    /// The body with every request asked by `auth` (`nil`: signed out), whatever it named.
    package func replacingAuth(with auth: AuthContext?) -> PolicyRequestBody {
        var inner = body
        for index in inner.items.indices { inner.items[index].request.auth = auth }
        return PolicyRequestBody(body: inner)
    }

    /// The body with every request reading exactly `documents`, whatever it named.
    package func replacingDocuments(with documents: DocumentStore) -> PolicyRequestBody {
        var inner = body
        for index in inner.items.indices { inner.items[index].documents = documents }
        return PolicyRequestBody(body: inner)
    }

    /// The `auth` each request is asked by, in order (what the rules see as `request.auth`).
    package var askers: [AuthContext?] { body.items.map(\.request.auth) }

    /// The documents each request reads, in order.
    var documentStores: [DocumentStore] { body.items.map(\.documents) }
}
