import Foundation
import HTTPTypes
import Hummingbird

/// The two listeners of `regimen serve`. The public one serves the API and the page's planner
/// to whoever can reach it; the private one (loopback by default) serves the same and, beside
/// them, what only the machine's operator should reach: admin, the rules playground and the
/// security simulator. A deployment exposes the public one alone; nothing private is ever on it,
/// whatever its address. (Credentials for callers, when they come, attach per listener.)
package enum Listener: String, Sendable, CaseIterable {
    case `public`
    case `private`
}

/// Refuses, on the private listener, a request addressed to another name than this machine's
/// (`Host`) or sent by a page from another origin (`Origin`): a web page on the internet
/// whose name resolves to 127.0.0.1 (DNS rebinding) cannot drive a coach's local playground.
struct PrivateListenerGuard: RouterMiddleware {
    typealias Context = ServiceContext

    /// The address the private listener is bound to, which a request may name too.
    let boundHost: String

    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        // HTTP/1.1's Host arrives as the request's authority; a Host field is read too.
        for host in [request.head.authority, request.headers[Self.hostField]].compactMap({ $0 }) where !allowed(Self.hostName(host)) {
            throw ServiceError(
                .forbidden, "request.host",
                "the private listener answers only requests addressed to this machine (Host: localhost, 127.0.0.1 or [::1]), not '\(host)'",
                path: "Host")
        }
        if let origin = request.headers[.origin], origin != "null" {
            guard let url = URL(string: origin), ["http", "https"].contains(url.scheme ?? ""), let host = url.host, allowed(Self.hostName(host)) else {
                throw ServiceError(
                    .forbidden, "request.origin", "the private listener answers only pages served by this machine, not one from '\(origin)'", path: "Origin")
            }
        }
        return try await next(request, context)
    }

    private static let hostField = HTTPField.Name("Host")!

    private func allowed(_ name: String) -> Bool {
        ServiceConfiguration.isLoopback(name) || name == Self.hostName(boundHost)
    }

    /// A Host value's name without its port: `[::1]:8080` → `::1`, `localhost:80` → `localhost`.
    static func hostName(_ host: String) -> String {
        let trimmed = host.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
        // One colon: name:port. More: a bare IPv6 address.
        if trimmed.filter({ $0 == ":" }).count == 1, let colon = trimmed.firstIndex(of: ":") { return String(trimmed[..<colon]) }
        return trimmed
    }
}
