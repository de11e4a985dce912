import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RegimenKit
import NIOFoundationEssentialsCompat

/// Reads documents from a Firestore database with its REST API's `documents:batchGet`: one call
/// answers many paths (each `found` or `missing`), so a decision's reads cost one round trip
/// per round, not one per document.
struct FirestoreRESTReader: DocumentReading {
    /// The most documents one `batchGet` asks for; more are asked in further calls.
    static let maximumPathsPerCall = 100
    /// The longest answer read (100 documents of Firestore's 1 MiB maximum would be more; such a
    /// database is not what rules read).
    static let maximumResponseBytes = 16 << 20

    let settings: LiveDocumentSettings
    let tokens: GoogleAccessTokens
    let client: HTTPClient

    /// - Throws: ``LiveDocumentError`` when the credentials do not read.
    init(_ settings: LiveDocumentSettings, client: HTTPClient = .shared) throws(LiveDocumentError) {
        self.settings = settings
        self.tokens = try GoogleAccessTokens(settings.credentials)
        self.client = client
    }

    package func read(_ paths: [String]) async throws(LiveDocumentError) -> [String: OrderedDictionary<String, Value>?] {
        var result: [String: OrderedDictionary<String, Value>?] = [:]
        var start = 0
        while start < paths.count {
            let chunk = Array(paths[start..<min(start + Self.maximumPathsPerCall, paths.count)])
            for (path, fields) in try await batchGet(chunk) { result[path] = fields }
            start += Self.maximumPathsPerCall
        }
        for path in paths where result.index(forKey: path) == nil {
            throw LiveDocumentError("Firestore's answer left out \(path)")
        }
        return result
    }

    /// `projects/P/databases/D/documents/…` for a request path `/databases/D/documents/…`.
    func name(of path: String) -> String { "projects/\(settings.project)\(path)" }

    private func batchGet(_ paths: [String]) async throws(LiveDocumentError) -> [String: OrderedDictionary<String, Value>?] {
        // Every path of one call must name the same database; the service's policies name one.
        let database = paths.first.flatMap { FirestoreRESTValues.requestPath(ofName: name(of: $0)) }.map { Array($0.prefix(2)) } ?? ["databases", "(default)"]
        let root = settings.endpoint.absoluteString.hasSuffix("/") ? String(settings.endpoint.absoluteString.dropLast()) : settings.endpoint.absoluteString
        let url = "\(root)/v1/projects/\(settings.project)/\(database.joined(separator: "/"))/documents:batchGet"
        var names: [String: String] = [:]
        for path in paths { names[name(of: path)] = path }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: ["documents": paths.map(name(of:))])
        } catch {
            throw LiveDocumentError("cannot write the batchGet request: \(error)")
        }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(try await tokens.token(client: client, timeout: settings.timeout))")
        request.body = .bytes(ByteBuffer(data: body))
        let data = try await Self.send(request, client: client, timeout: settings.timeout, limit: Self.maximumResponseBytes, what: "Firestore")
        guard let answers = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw LiveDocumentError("Firestore's batchGet answer is not a JSON list")
        }
        var result: [String: OrderedDictionary<String, Value>?] = [:]
        for answer in answers {
            guard let answer = answer as? [String: Any] else { throw LiveDocumentError("a batchGet answer element is not an object") }
            if let found = answer["found"] as? [String: Any] {
                guard let name = found["name"] as? String, let path = names[name] else {
                    throw LiveDocumentError("batchGet answered a document that was not asked for")
                }
                result[path] = .some(try FirestoreRESTValues.fields(ofDocument: found))
            } else if let missing = answer["missing"] as? String {
                guard let path = names[missing] else { throw LiveDocumentError("batchGet answered a document that was not asked for") }
                result[path] = .some(nil)
            } else if answer["transaction"] == nil && answer["readTime"] == nil {
                throw LiveDocumentError("a batchGet answer element is neither found nor missing")
            }
        }
        return result
    }

    /// Sends `request`, expecting 200 within `timeout`, and reads at most `limit` bytes of its answer.
    static func send(_ request: HTTPClientRequest, client: HTTPClient, timeout: Duration, limit: Int, what: String) async throws(LiveDocumentError) -> Data {
        let amount = TimeAmount.nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        do {
            let response = try await client.execute(request, timeout: amount)
            let body = try await response.body.collect(upTo: limit)
            guard response.status == .ok else {
                let text = String(buffer: body).prefix(200)
                throw LiveDocumentError("\(what) answered \(response.status.code): \(text)")
            }
            return Data(body.readableBytesView)
        } catch let error as LiveDocumentError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw LiveDocumentError("\(what) did not answer within \(timeout)")
        } catch {
            throw LiveDocumentError("\(what) could not be read: \(error)")
        }
    }
}
