import Foundation
import HTTPTypes
import Hummingbird
import Logging

extension ServiceRoutes {
    /// The page for coaches at `/` and its hashed assets under `/assets/`. The page calls the
    /// JSON API itself; these routes serve files only, so they are not in the OpenAPI document.
    func addWeb(to router: Router<ServiceContext>, logger: Logger) {
        let loaded = WebAssets.load()
        if case .failure(let error) = loaded {
            logger.warning("web page unavailable", metadata: ["reason": "\(error)"])
        }
        route(router, .get, "/") { request, _ in
            Self.serve(try Self.assets(loaded).page, request, immutable: false)
        }
        route(router, .get, "/assets/{file}") { request, context in
            let name = context.parameters.get("file") ?? ""
            guard let asset = try Self.assets(loaded).assets[name] else { throw ServiceError.notFound(request.uri.path) }
            return Self.serve(asset, request, immutable: true)
        }
    }

    private static func assets(_ loaded: Result<WebAssets, WebAssets.LoadError>) throws(ServiceError) -> WebAssets {
        switch loaded {
        case .success(let assets): return assets
        case .failure(let error): throw ServiceError(.serviceUnavailable, "web.assets", error.description)
        }
    }

    /// The Content-Security-Policy of the page: its own scripts, styles and API only; no inline
    /// script or style, no frames, no form posts elsewhere.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// An asset, or 304 when the browser's copy is current. Hashed assets never change under
    /// their name; the page is revalidated every time.
    private static func serve(_ asset: WebAssets.Asset, _ request: Request, immutable: Bool) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = asset.etag
        headers[.cacheControl] = immutable ? "public, max-age=31536000, immutable" : "no-cache"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        let validators = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if validators.contains(asset.etag) || validators.contains("*") {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.body)))
    }
}

extension HTTPField.Name {
    // A valid header token, written once here; `init?` fails only on invalid ones.
    /// Keeps the page's address out of requests to other origins (there are none, by the policy).
    static let referrerPolicy = Self("Referrer-Policy")!
}
