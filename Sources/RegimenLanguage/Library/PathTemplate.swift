import OrderedCollections

/// `path.bind(map)`: a path whose segments `{name}` and `{name=**}` are variables, with values
/// put in their place, as the emulator does it: a `{name}` takes any value written as
/// `string()` writes it (a string with `/` adds several segments), a `{name=**}` takes a path;
/// a variable the map leaves unbound is dropped, and a key that names no variable is an error.
enum PathTemplate {
    private enum Segment {
        case literal(String)
        case variable(String, rest: Bool)
    }

    static func bind(_ path: PathValue, _ values: OrderedDictionary<String, Value>, _ span: SourceSpan) throws(EvaluationError) -> PathValue {
        var segments: [Segment] = []
        var names: Set<String> = []
        for segment in path.segments {
            guard segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 else {
                segments.append(.literal(segment))
                continue
            }
            var name = String(segment.dropFirst().dropLast())
            let rest = name.hasSuffix("=**")
            if rest { name.removeLast(3) }
            guard names.insert(name).inserted else {
                throw EvaluationError(.invalidArgument, "Variable \(name) already exists in the PathTemplate.", span: span)
            }
            segments.append(.variable(name, rest: rest))
        }
        let unknown = values.keys.filter { !names.contains($0) }
        guard unknown.isEmpty else {
            throw EvaluationError(.invalidArgument, "Variable(s) \(unknown.joined(separator: ",")) do not exist in the path template.", span: span)
        }
        var result: [String] = []
        for segment in segments {
            switch segment {
            case .literal(let text):
                result.append(text)
            case .variable(let name, let rest):
                guard let value = values[name] else { continue }
                if rest {
                    guard case .path(let inner) = value else {
                        throw EvaluationError(.typeError, .typeError(typeName: value.typeName), span: span)
                    }
                    result.append(contentsOf: inner.segments)
                } else {
                    let text = try Builtin.render(value) { EvaluationError.unsupported("path.bind(\(value.typeName))", span) }
                    result.append(contentsOf: PathValue(parsing: text).segments)
                }
            }
        }
        return PathValue(segments: result)
    }
}
