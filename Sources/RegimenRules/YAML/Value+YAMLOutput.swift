import Foundation
import RegimenLanguage
internal import Yams

extension Value {
    /// The value as a YAML document with sorted keys, emitted by Yams (libyaml), with the same
    /// content as ``Value/jsonString(pretty:)``: timestamps as RFC 3339 strings, durations as
    /// `"90s"`, sets as sequences.
    package func yamlString() -> String {
        guard let text = try? Yams.serialize(node: yamlNode, width: -1, allowUnicode: true, sortKeys: true) else {
            return jsonString(pretty: true) + "\n"
        }
        return text
    }

    private var yamlNode: Yams.Node {
        switch self {
        case .null:
            return Yams.Node("null", Tag(.null))
        case .bool(let b):
            return Yams.Node(b ? "true" : "false", Tag(.bool))
        case .int(let i):
            return Yams.Node(String(i), Tag(.int))
        case .float(let f):
            let text = f.isNaN ? ".nan" : (f.isInfinite ? (f < 0 ? "-.inf" : ".inf") : "\(f)")
            return Yams.Node(text, Tag(.float))
        case .string(let s):
            // Tagged as a string, so libyaml quotes it when it would otherwise read as a number or bool.
            return Yams.Node(s, Tag(.str))
        case .list(let items):
            return Yams.Node(items.map(\.yamlNode))
        case .set(let set):
            return Yams.Node(set.elements.map(\.yamlNode))
        case .map(let map):
            return Yams.Node(map.map { (Yams.Node($0.key, Tag(.str)), $0.value.yamlNode) })
        case .bytes, .path, .timestamp, .duration, .latlng, .mapDiff, .constraint:
            // The JSON form of these is a string or a small map; reuse it.
            guard let data = jsonString().data(using: .utf8),
                  let decoded = try? Yams.compose(yaml: String(decoding: data, as: UTF8.self))
            else { return Yams.Node(description, Tag(.str)) }
            return decoded
        }
    }
}
