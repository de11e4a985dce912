import Crypto
import Foundation

/// The page at `/` and its stylesheet and scripts, read once from the service's resource bundle.
///
/// Each asset is served under a name carrying its content hash (`app.3f9c0a1b2d4e.js`), so a
/// browser may keep it forever and a changed file is a new name; the page, which names them,
/// is revalidated on every load. Nothing is fetched from elsewhere: the page works offline.
struct WebAssets: Sendable {
    /// One file as served.
    struct Asset: Sendable {
        /// The name it is served under: the page's `/`, an asset's hashed name.
        let name: String
        let contentType: String
        let body: Data
        /// A strong validator: the body's SHA-256, quoted as HTTP wants it.
        let etag: String
    }

    /// The page, with every asset reference rewritten to the asset's hashed name.
    let page: Asset
    /// The assets by their hashed name.
    let assets: [String: Asset]

    /// The resource bundle SwiftPM builds for this target, found beside the executable (or an
    /// ancestor folder of it, as a test runner inside `.build` has it). SwiftPM's generated
    /// accessor would stop the process when the bundle is missing; a server whose binary was
    /// copied without it must still answer its JSON API, so the lookup is done here.
    static let bundleNames = ["Regimen_RegimenService.resources", "Regimen_RegimenService.bundle"]

    /// Content types by file extension; an asset of another kind is a packaging mistake.
    static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    enum LoadError: Error, CustomStringConvertible {
        case bundleMissing(searched: [String])
        case unreadable(String, String)
        case unknownType(String)

        var description: String {
            switch self {
            case .bundleMissing(let searched):
                "the page's assets were not found (looked for \(bundleNames[0])/Assets in \(searched.joined(separator: ", "))); install that folder beside the regimen executable"
            case .unreadable(let file, let reason): "the page's asset \(file) could not be read: \(reason)"
            case .unknownType(let file): "the page's asset \(file) has no known content type"
            }
        }
    }

    /// Finds the bundle's `Assets` folder and loads every file in it.
    static func load(executable: URL? = Bundle.main.executableURL) -> Result<WebAssets, LoadError> {
        var searched: [String] = []
        var folder = executable?.deletingLastPathComponent()
        for _ in 0..<4 {
            guard let directory = folder else { break }
            for name in bundleNames {
                for inner in ["Assets", "Contents/Resources/Assets"] {
                    let candidate = directory.appendingPathComponent(name).appendingPathComponent(inner)
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                        return load(from: candidate)
                    }
                }
            }
            searched.append(directory.path)
            folder = directory.deletingLastPathComponent()
        }
        return .failure(.bundleMissing(searched: searched))
    }

    /// Loads `index.html` and its assets from `folder`.
    static func load(from folder: URL) -> Result<WebAssets, LoadError> {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            return .failure(.unreadable(folder.path, "\(error)"))
        }
        var assets: [String: Asset] = [:]
        var renamed: [(plain: String, hashed: String)] = []
        var pageText: String?
        for name in names {
            let data: Data
            do {
                data = try Data(contentsOf: folder.appendingPathComponent(name))
            } catch {
                return .failure(.unreadable(name, "\(error)"))
            }
            let ext = (name as NSString).pathExtension
            guard let type = contentTypes[ext] else { return .failure(.unknownType(name)) }
            if name == "index.html" {
                guard let text = String(data: data, encoding: .utf8) else { return .failure(.unreadable(name, "not UTF-8")) }
                pageText = text
                continue
            }
            let digest = digest(data)
            let hashed = "\((name as NSString).deletingPathExtension).\(digest.prefix(12)).\(ext)"
            assets[hashed] = Asset(name: hashed, contentType: type, body: data, etag: "\"\(digest)\"")
            renamed.append((name, hashed))
        }
        guard var page = pageText else { return .failure(.unreadable("index.html", "missing")) }
        for (plain, hashed) in renamed {
            page = page.replacingOccurrences(of: "\"/assets/\(plain)\"", with: "\"/assets/\(hashed)\"")
        }
        let body = Data(page.utf8)
        return .success(WebAssets(
            page: Asset(name: "/", contentType: "text/html; charset=utf-8", body: body, etag: "\"\(digest(body))\""), assets: assets))
    }

    private static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
