package import RegimenKit

/// Reads documents by full request path (`/databases/(default)/documents/users/alice`).
package protocol DocumentReading: Sendable {
    /// The fields of each path's document, `nil` for a document that does not exist. Every path
    /// asked for is answered, or the whole read fails.
    func read(_ paths: [String]) async throws(LiveDocumentError) -> [String: OrderedDictionary<String, Value>?]
}
