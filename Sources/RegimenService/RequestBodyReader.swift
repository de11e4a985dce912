import Foundation
import HTTPTypes
import Hummingbird

/// Reads a request body within the service's limits: a JSON or YAML content type (415
/// otherwise) and at most the configured bytes (413 beyond).
struct RequestBodyReader: Sendable {
    let maximumBytes: Int

    /// Media types a body may declare: JSON, YAML (which JSON is), and `+json` types.
    static let acceptedTypes: Set = ["application/json", "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"]

    func read(_ request: Request) async throws(ServiceError) -> Data {
        let declared = request.headers[.contentType] ?? ""
        let mediaType = declared.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard Self.acceptedTypes.contains(mediaType) || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json")) else {
            throw ServiceError(
                .unsupportedMediaType, "request.content-type",
                declared.isEmpty ? "the body needs Content-Type: application/json (or application/yaml)"
                    : "Content-Type '\(declared)' is not accepted; send application/json (or application/yaml)",
                path: "Content-Type")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBytes {
            throw Self.tooLarge(maximumBytes)
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Self.tooLarge(maximumBytes)
        } catch {
            throw ServiceError(.badRequest, "request.body", "the body could not be read: \(error)")
        }
        return Data(buffer.readableBytesView)
    }

    private static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(.contentTooLarge, "request.too-large", "the body is larger than \(limit) bytes, the most the service accepts")
    }
}
