import Foundation
import HTTPTypes
import Hummingbird
import RegimenKit

/// An error answered as `{"error": {"id", "message", "path", "line", "column"}, "problems": [...]}`:
/// `path` names the field or the `file:line:col` at fault as the CLI's diagnostics do, `line` and
/// `column` place the problem in the body when it was read from text; a key whose value is unknown
/// is left out rather than written as `null`. `problems` lists every problem found (the first is
/// `error`).
struct ServiceError: Error, Sendable, HTTPResponseError {
    /// One problem: a stable id, a sentence, and where.
    struct Problem: Sendable, Hashable {
        package var id: String
        package var message: String
        package var path: String?
        /// Where in the body the problem is, 1-based, when the body had a place for it.
        package var line: Int? = nil
        package var column: Int? = nil
    }

    var status: HTTPResponse.Status
    package var problems: [Problem]
    /// Seconds a client should wait before asking again (429 and 503 answer it in `Retry-After`).
    var retryAfter: Int?

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
            // A problem without a place has no `path`, `line` or `column` key, rather than `null`.
            var fields: Value.Map = ["id": .string(problem.id), "message": .string(problem.message)]
            if let path = problem.path { fields["path"] = .string(path) }
            if let line = problem.line { fields["line"] = .int(Int64(line)) }
            if let column = problem.column { fields["column"] = .int(Int64(column)) }
            return .map(fields)
        }
        return .map(["error": problemValue(problems[0]), "problems": .list(problems.map(problemValue))])
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
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

    /// The engine's error as a response, from its code and diagnostics (never from its text):
    /// a missing policy → 404, a refusal → 403, a body that cannot be read → 400, any other
    /// problem of the caller's input or of the rules answering it → 422. Each problem keeps its
    /// diagnostic's id and message; its path is the diagnostic's field, else its
    /// `file:line:col`, else the input it is about; its line and column are the diagnostic's.
    init(_ error: RegimenError) {
        let problems = error.diagnostics.map { diagnostic in
            Problem(id: diagnostic.id, message: diagnostic.message, path: diagnostic.field ?? diagnostic.location.map { "\($0)" } ?? error.input,
                    line: diagnostic.location?.line, column: diagnostic.location?.column)
        }
        if error.code == .policyNotFound {
            self.init(.notFound, problems: problems.map { problem in
                var problem = problem
                problem.message += "; GET /v1/rules lists the policy files"
                return problem
            })
        } else if error.code == .refused {
            self.init(.forbidden, problems: problems)
        } else {
            let unreadable = error.diagnostics.contains { Self.unreadableIDs.contains($0.id) }
            self.init(unreadable ? .badRequest : .unprocessableContent, problems: problems)
        }
    }

    /// A body that could not be read as a document (syntax, encoding, nesting, empty): 400.
    init(unreadable error: RegimenError) {
        self.init(error)
        status = .badRequest
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
