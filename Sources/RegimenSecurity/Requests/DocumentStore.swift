import OrderedCollections
import RegimenLanguage

/// The documents (or Storage objects) that exist when a request is evaluated.
///
/// Keys are full request paths (`/databases/(default)/documents/users/alice`); values are the
/// document's fields, or for Storage the object's metadata (`size`, `contentType`, `metadata`).
public struct DocumentStore: Sendable, Hashable {
    public private(set) var documents: [String: OrderedDictionary<String, Value>]

    public init(_ documents: [String: OrderedDictionary<String, Value>] = [:]) {
        self.documents = documents
    }

    public subscript(path: RequestPath) -> OrderedDictionary<String, Value>? {
        get { documents[path.description] }
        set { documents[path.description] = newValue }
    }

    public func contains(_ path: RequestPath) -> Bool { documents[path.description] != nil }

    /// The store with `other`'s documents laid over this one's.
    public func merging(_ other: DocumentStore) -> DocumentStore {
        DocumentStore(documents.merging(other.documents) { _, new in new })
    }

    public var isEmpty: Bool { documents.isEmpty }
}
