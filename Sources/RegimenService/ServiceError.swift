import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit

/// An error answered as `{"error": {"id", "message", "path"}, "problems": [...]}`: `path` names
/// the field or the `file:line:col` at fault as the CLI's diagnostics do, and `problems` lists
/// every problem found (the first is `error`).
package struct ServiceError: Error, Sendable, HTTPResponseError {
    /// One problem: a stable id, a sentence, and where.
    package struct Problem: Sendable, Hashable {
        package var id: String
        package var message: String
        package var path: String?
    }

    package var status: HTTPResponse.Status
    package var problems: [Problem]

    init(_ status: HTTPResponse.Status, _ id: String, _ message: String, path: String? = nil) {
        self.status = status
        problems = [Problem(id: id, message: message, path: path)]
    }

    init(_ status: HTTPResponse.Status, problems: [Problem]) {
        self.status = status
        self.problems = problems.isEmpty ? [Problem(id: "request.invalid", message: "the request was refused", path: nil)] : problems
    }

    /// The JSON body.
    var value: Value {
        func problemValue(_ problem: Problem) -> Value {
            .map(["id": .string(problem.id), "message": .string(problem.message), "path": problem.path.map(Value.string) ?? .null])
        }
        return .map(["error": problemValue(problems[0]), "problems": .list(problems.map(problemValue))])
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(status: status, json: value.jsonString(pretty: true) + "\n")
    }

    static func timeBudget(_ budget: Duration) -> ServiceError {
        ServiceError(.serviceUnavailable, "service.time-budget", "the request took longer than its time budget (\(budget)); it was abandoned")
    }

    static func notFound(_ path: String) -> ServiceError {
        ServiceError(.notFound, "route.not-found", "no route for \(path); GET /openapi.json lists them", path: nil)
    }
}

extension ServiceError {
    /// Problems whose ids say the body could not be read at all (syntax, encoding, size,
    /// nesting): those are 400; a readable body the contract refuses is 422.
    private static let unreadableIDs: Set = [
        "yaml.syntax", "yaml.encoding", "yaml.too-deep", "yaml.too-large", "yaml.multiple-documents", "yaml.duplicate-key",
        "file.encoding", "file.too-large", "request.empty",
    ]

    /// The engine's error as a response: the caller's input → 400/404/422, a refusal → 403,
    /// the rules unable to answer → 422 naming the rule (the input is outside what they handle).
    init(_ error: RegimenError) {
        switch error {
        case .policyNotFound(let name, _):
            self.init(.notFound, "policy.not-found", "no policy named '\(name)'; GET /v1/rules lists the policy files", path: nil)
        case .profile(let problems):
            self.init(.unprocessableContent, problems: problems.map { Problem(id: $0.diagnostic.id, message: $0.diagnostic.message, path: $0.field) })
        case .request(let lines):
            self.init(.unprocessableContent, problems: lines.map(Self.problem(line:)))
        case .refused(let message):
            self.init(.forbidden, "request.refused", message)
        case .option(let message):
            self.init(.unprocessableContent, "option.invalid", message)
        case .rules, .policy, .evaluation:
            let diagnostics = error.diagnostics
            let unreadable = diagnostics.contains { Self.unreadableIDs.contains($0.id) }
            self.init(unreadable ? .badRequest : .unprocessableContent, problems: diagnostics.map {
                Problem(id: $0.id, message: $0.message, path: $0.location.map { "\($0)" })
            })
        }
    }

    /// A body that could not be read as a document (syntax, encoding, nesting, empty): 400.
    init(unreadable error: RegimenError) {
        self.init(error)
        status = .badRequest
        problems = problems.map { problem in
            var problem = problem
            if problem.id == "request.invalid" || problem.id == "adapt.input" { problem.id = "request.unreadable" }
            return problem
        }
    }

    /// `file:line:col: error: message` → its location and message.
    private static func problem(line: String) -> Problem {
        guard let range = line.range(of: ": error: ") else {
            let message = line.hasPrefix("error: ") ? String(line.dropFirst(7)) : line
            return Problem(id: "request.invalid", message: message, path: nil)
        }
        return Problem(id: "request.invalid", message: String(line[range.upperBound...]), path: String(line[..<range.lowerBound]))
    }
}

/// JSON (or other text) responses with their content type.
enum JSONResponse {
    static func make(status: HTTPResponse.Status = .ok, json: String, contentType: String = "application/json; charset=utf-8") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
}
