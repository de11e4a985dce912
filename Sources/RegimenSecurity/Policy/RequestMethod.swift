/// The five methods a request is classified as (`request.method`).
package enum RequestMethod: String, Sendable, Hashable, CaseIterable, Comparable {
    case get
    case list
    case create
    case update
    case delete

    var isRead: Bool { self == .get || self == .list }
    package var isWrite: Bool { !isRead }

    package static func < (lhs: RequestMethod, rhs: RequestMethod) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A method name as an `allow` statement spells it, including the `read` and `write` groups.
package enum MethodName: String, Sendable, Hashable, CaseIterable {
    case read
    case write
    case get
    case list
    case create
    case update
    case delete

    /// `read` is `get` + `list`; `write` is `create` + `update` + `delete`.
    var expansion: Set<RequestMethod> {
        switch self {
        case .read: [.get, .list]
        case .write: [.create, .update, .delete]
        case .get: [.get]
        case .list: [.list]
        case .create: [.create]
        case .update: [.update]
        case .delete: [.delete]
        }
    }
}
