import Foundation
import RegimenKit

/// Firestore's REST encoding of document fields (`{"integerValue": "3"}`, `{"mapValue":
/// {"fields": {...}}}` …) read into the values the rules see.
///
/// Map keys are sorted: Firestore keeps a map's fields in key order, and a JSON object's order
/// is not something a reader may rely on. A value nested deeper than ``maximumDepth`` (Firestore
/// allows 20 levels) or of a kind Firestore does not have is an error, never a guess.
enum FirestoreRESTValues {
    static let maximumDepth = 32

    /// The fields of a REST `Document` object (`{"name", "fields", "createTime", "updateTime"}`).
    static func fields(ofDocument document: [String: Any]) throws(LiveDocumentError) -> OrderedDictionary<String, Value> {
        guard let fields = document["fields"] else { return [:] }
        guard let map = fields as? [String: Any] else { throw LiveDocumentError("a document's 'fields' is not an object") }
        return try self.map(map, depth: 1)
    }

    private static func map(_ fields: [String: Any], depth: Int) throws(LiveDocumentError) -> OrderedDictionary<String, Value> {
        var result = OrderedDictionary<String, Value>()
        for key in fields.keys.sorted() {
            result[key] = try value(fields[key] as Any, depth: depth)
        }
        return result
    }

    static func value(_ json: Any, depth: Int) throws(LiveDocumentError) -> Value {
        guard depth <= maximumDepth else { throw LiveDocumentError("a value nests deeper than \(maximumDepth) levels") }
        guard let object = json as? [String: Any], object.count == 1, let (kind, inner) = object.first else {
            throw LiveDocumentError("a value is not an object with exactly one kind")
        }
        switch kind {
        case "nullValue":
            return .null
        case "booleanValue":
            guard let bool = inner as? Bool else { throw LiveDocumentError("booleanValue is not true or false") }
            return .bool(bool)
        case "integerValue":
            // int64 travels as a JSON string (JSON numbers lose precision past 2^53).
            if let text = inner as? String, let int = Int64(text) { return .int(int) }
            throw LiveDocumentError("integerValue is not a 64-bit integer")
        case "doubleValue":
            return .float(try double(inner))
        case "timestampValue":
            guard let text = inner as? String, let time = Timestamp(iso8601: text) else { throw LiveDocumentError("timestampValue is not an RFC 3339 time") }
            return .timestamp(time)
        case "stringValue":
            guard let text = inner as? String else { throw LiveDocumentError("stringValue is not a string") }
            return .string(text)
        case "bytesValue":
            guard let text = inner as? String, let data = Data(base64Encoded: text) else { throw LiveDocumentError("bytesValue is not base64") }
            return .bytes(Array(data))
        case "referenceValue":
            guard let name = inner as? String, let path = requestPath(ofName: name) else {
                throw LiveDocumentError("referenceValue is not a document name (projects/P/databases/D/documents/…)")
            }
            return .path(PathValue(segments: path))
        case "geoPointValue":
            guard let point = inner as? [String: Any] else { throw LiveDocumentError("geoPointValue is not an object") }
            // Zero coordinates are left out of the JSON (proto3 defaults).
            return .latlng(LatLng(latitude: try point["latitude"].map(double) ?? 0, longitude: try point["longitude"].map(double) ?? 0))
        case "arrayValue":
            guard let array = inner as? [String: Any] else { throw LiveDocumentError("arrayValue is not an object") }
            guard let values = array["values"] else { return .list([]) }
            guard let list = values as? [Any] else { throw LiveDocumentError("arrayValue.values is not a list") }
            var result: [Value] = []
            result.reserveCapacity(list.count)
            for element in list { result.append(try value(element, depth: depth + 1)) }
            return .list(result)
        case "mapValue":
            guard let map = inner as? [String: Any] else { throw LiveDocumentError("mapValue is not an object") }
            guard let fields = map["fields"] else { return .map([:]) }
            guard let object = fields as? [String: Any] else { throw LiveDocumentError("mapValue.fields is not an object") }
            return .map(try self.map(object, depth: depth + 1))
        default:
            throw LiveDocumentError("unknown value kind '\(kind.prefix(40))'")
        }
    }

    /// A JSON number, or the strings proto3 JSON uses for the doubles JSON lacks.
    private static func double(_ json: Any) throws(LiveDocumentError) -> Double {
        if let text = json as? String {
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: throw LiveDocumentError("doubleValue is not a number")
            }
        }
        guard let number = json as? NSNumber else { throw LiveDocumentError("doubleValue is not a number") }
        return number.doubleValue
    }

    /// `projects/P/databases/D/documents/a/b` → `databases/D/documents/a/b` (a request path's segments).
    static func requestPath(ofName name: String) -> [String]? {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 5, segments[0] == "projects", segments[2] == "databases", segments[4] == "documents",
              !segments.contains(where: \.isEmpty)
        else { return nil }
        return Array(segments.dropFirst(2))
    }
}
