import RegimenSecurity

// What a service needs to decide with documents it reads from a database while it decides:
// which document each request is about, a decision that reports the documents its rules read,
// and a deny for when the documents could not be had.

extension PolicyRequestBody {
    /// The full path (`/databases/(default)/documents/users/alice`) of the document each request
    /// is about, whose stored version decides create versus update and is `resource`; `nil` for
    /// a list, which is about a collection.
    package var ownDocumentPaths: [String?] {
        body.items.map { item in
            if case .list = item.request.operation { return nil }
            return item.request.operation.path.description
        }
    }

    /// The path each request is about, as its decision shows it.
    package var requestPaths: [String] { body.items.map { $0.request.operation.path.description } }
}

extension Policy {
    /// Decides request `index` of `body` with `live` documents (read from a database) beside the
    /// request's own (the body's): the live ones win under ``BodyDocumentLayering/under``, the
    /// body's under ``BodyDocumentLayering/over``.
    /// - Returns: the decision and the full path of every document its rules read through
    ///   `get()`, `exists()`, `getAfter()` or `existsAfter()`, in the order first read. A decision
    ///   whose reads all lie in `live`'s fetched paths is the decision the database's documents
    ///   give; otherwise the caller fetches the others and decides again.
    package func decide(
        _ body: PolicyRequestBody, at index: Int, live: DocumentStore, layering: BodyDocumentLayering, explain: Bool
    ) -> (decision: Decision, reads: [String]) {
        let item = body.body.items[index]
        let documents = layering == .under ? item.documents.merging(live) : live.merging(item.documents)
        let log = DocumentReadLog()
        let decision = compiled.decide(item.request, store: documents, options: DecisionOptions(explain: explain, evaluateAll: explain, readLog: log))
        return (decision, log.recorded)
    }

    /// A deny of the request at `path` made without the rules: the documents it needs could not be
    /// read (`reason`). Fail closed, as Firestore denies a request whose reads fail.
    package static func documentsUnavailable(path: String, reason: String) -> Decision {
        Decision.failedClosed(path: path, note: "denied: the documents could not be read (\(reason))")
    }
}
