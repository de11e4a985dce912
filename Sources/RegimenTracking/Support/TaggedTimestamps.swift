import OrderedCollections
import RegimenLanguage

/// JSON and YAML have no timestamp type, so trees write a Firestore timestamp as the tagged map
/// `{"$timestamp": "2026-01-05T08:00:00Z"}` (the form `regimen authorize --data` and the emulator
/// tools use). A plain string stays a string, as Firestore would store it.
extension Value {
    /// The value with every `{"$timestamp": "RFC 3339"}` map turned into a timestamp.
    var decodingTaggedTimestamps: Value {
        switch self {
        case .map(let entries):
            if entries.count == 1, case .string(let text)? = entries["$timestamp"], let time = Timestamp(iso8601: text) {
                return .timestamp(time)
            }
            return .map(entries.mapValues(\.decodingTaggedTimestamps))
        case .list(let items):
            return .list(items.map(\.decodingTaggedTimestamps))
        default:
            return self
        }
    }

    /// The value with every timestamp written as `{"$timestamp": "RFC 3339"}`.
    var encodingTaggedTimestamps: Value {
        switch self {
        case .timestamp(let time):
            return .map(["$timestamp": .string(time.description)])
        case .map(let entries):
            return .map(entries.mapValues(\.encodingTaggedTimestamps))
        case .list(let items):
            return .list(items.map(\.encodingTaggedTimestamps))
        default:
            return self
        }
    }
}
