import Foundation
import OrderedCollections
import RegimenLanguage

/// JSON that keeps every rules type apart, for tools that replay requests elsewhere (the
/// emulator differential): ints stay integers, floats carry a fraction or `{"$float": n}`, and
/// timestamps, paths, bytes and write sentinels are tagged objects (`{"$timestamp": "…"}`,
/// `{"$serverTimestamp": true}`, `{"$delete": true}`). Keys keep document order.
enum TypedJSON {
    static func encode(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let d):
            if d.isNaN { return "{\"$float\": \"NaN\"}" }
            if d.isInfinite { return "{\"$float\": \"\(d > 0 ? "Infinity" : "-Infinity")\"}" }
            if let whole = NumberText.whole(d) { return "{\"$float\": \(whole)}" }
            return "\(d)"
        case .string(let s): return string(s)
        case .bytes(let b): return "{\"$bytes\": \(string(Data(b).base64EncodedString()))}"
        case .list(let items): return "[" + items.map(encode).joined(separator: ", ") + "]"
        case .set(let s): return "[" + s.elements.map(encode).joined(separator: ", ") + "]"
        case .map(let m): return object(m.map { ($0.key, encode($0.value)) })
        case .path(let p): return "{\"$path\": \(string(p.description))}"
        case .timestamp(let t): return "{\"$timestamp\": \(string(t.description))}"
        case .duration(let d): return "{\"$duration\": \(string(d.description))}"
        case .latlng(let p): return "{\"$latlng\": [\(p.latitude), \(p.longitude)]}"
        case .mapDiff, .constraint: return "null"
        }
    }

    static func encode(_ value: WriteValue) -> String {
        switch value {
        case .value(let v): return encode(v)
        case .serverTimestamp: return "{\"$serverTimestamp\": true}"
        case .deleteField: return "{\"$delete\": true}"
        case .map(let m): return object(m.map { ($0.key, encode($0.value)) })
        case .list(let items): return "[" + items.map(encode).joined(separator: ", ") + "]"
        }
    }

    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// The request of a case: operation, path, auth, time, data, query, upload.
    static func request(_ request: SecurityRequest) -> String {
        var pairs: [(String, String)] = [
            ("op", string(request.operation.verb)),
            ("path", string(request.operation.path.description)),
            ("time", string(request.time.description)),
        ]
        if let auth = request.auth {
            pairs.append(("auth", object([("uid", string(auth.uid)), ("token", encode(.map(auth.token)))])))
        } else {
            pairs.append(("auth", "null"))
        }
        switch request.operation {
        case .create(_, let data), .update(_, let data), .set(_, let data):
            pairs.append(("data", object(data.fields.map { ($0.key, encode($0.value)) })))
        case .list(_, let query):
            var q: [(String, String)] = []
            if let limit = query.limit { q.append(("limit", String(limit))) }
            if let offset = query.offset { q.append(("offset", String(offset))) }
            q.append(("orderBy", "[" + query.orderBy.map { "[\(string($0.key)), \(string($0.value))]" }.joined(separator: ", ") + "]"))
            q.append(("where", "[" + query.filters.map { "[\(string($0.field)), \(string($0.op.rawValue)), \(encode($0.value))]" }.joined(separator: ", ") + "]"))
            for cursor in query.cursors { q.append((cursor.kind.rawValue, "[" + cursor.values.map(encode).joined(separator: ", ") + "]")) }
            pairs.append(("query", object(q)))
        case .upload(_, let upload):
            pairs.append(("size", String(upload.size)))
            pairs.append(("contentType", upload.contentType.map(string) ?? "null"))
            pairs.append(("metadata", encode(.map(upload.metadata))))
        default:
            break
        }
        return object(pairs)
    }

    static func documents(_ store: DocumentStore) -> String {
        object(store.documents.keys.sorted().compactMap { key in store.documents[key].map { (key, encode(.map($0))) } })
    }
}
