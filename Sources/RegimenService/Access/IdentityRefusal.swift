import HTTPTypes

/// Why an `Authorization: Bearer` ID token gives no identity: answered 401 with the reason,
/// before any decision is made.
struct IdentityRefusal: Error, Sendable, Hashable {
    /// A stable id (`token.expired`); the error body's `error.id`.
    package var id: String
    package var message: String

    init(_ id: String, _ message: String) {
        self.id = id
        self.message = message
    }

    var serviceError: ServiceError {
        ServiceError(.unauthorized, id, message, path: "Authorization")
    }
}
