public import OrderedCollections
public import RegimenLanguage

/// The documents (or Storage objects) that exist when a request is evaluated.
///
/// Keys are full request paths (`/databases/(default)/documents/users/alice`); values are the
/// document's fields, or for Storage the object's metadata (`size`, `contentType`, `metadata`).
public struct DocumentStore: Sendable, Hashable {
    /// Each document's fields (or object's metadata), keyed by full request path.
    public private(set) var documents: [String: OrderedDictionary<String, Value>]

    /// A store holding the given documents, keyed by full request path.
    public init(_ documents: [String: OrderedDictionary<String, Value>] = [:]) {
        self.documents = documents
        keepSparse()
    }

    /// The document at `path`, or `nil` when none exists; setting `nil` removes it.
    public subscript(path: RequestPath) -> OrderedDictionary<String, Value>? {
        get { documents[path.description] }
        set {
            documents[path.description] = newValue
            keepSparse()
        }
    }

    /// Every decision looks a path up here, and a miss probes until an empty bucket, comparing
    /// each ~100-byte key on the way: at most a third of the buckets in use (Dictionary's own
    /// limit is three quarters) keeps those probes short. The store is written rarely.
    private mutating func keepSparse() {
        let wanted = documents.count * 2 + 1
        if documents.capacity < wanted { documents.reserveCapacity(wanted) }
    }

    /// Whether a document exists at `path`.
    public func contains(_ path: RequestPath) -> Bool { documents[path.description] != nil }

    /// The store with `other`'s documents laid over this one's.
    public func merging(_ other: DocumentStore) -> DocumentStore {
        DocumentStore(documents.merging(other.documents) { _, new in new })
    }

    /// Whether the store holds no documents.
    public var isEmpty: Bool { documents.isEmpty }
}
