/// Why an expression could not produce a value.
///
/// Errors are values in the rules language: `&&` and `||` absorb them when the other side decides
/// the result, and a condition that ends in an error is false (security decisions fail closed).
/// Messages follow the emulator's wording so traces read the same as Firebase's.
package struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable category, for tests and tools.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// A map has no such key (`Property k is undefined on object.`).
        static let undefinedProperty = Code("undefined-property")
        /// A field or method was read from `null`.
        static let nullValue = Code("null-value")
        /// An operation or method does not apply to the operand types.
        static let unsupportedOperation = Code("unsupported-operation")
        static let divideByZero = Code("divide-by-zero")
        static let overflow = Code("overflow")
        static let indexOutOfBounds = Code("index-out-of-bounds")
        package static let invalidArgument = Code("invalid-argument")
        static let functionNotFound = Code("function-not-found")
        /// `get()` of a missing document, or another host service failure.
        package static let serviceCall = Code("service-call")
        /// An evaluation bound (steps, call depth, sizes, document reads) was exceeded.
        package static let limitExceeded = Code("limit-exceeded")
        /// A condition produced a non-boolean value.
        package static let typeError = Code("type-error")
    }

    package var code: Code
    /// The emulator's wording of the error.
    package var message: String {
        get { detail.message }
        set { detail = .text(newValue) }
    }
    /// Where in the expression text the error arose, when known.
    package var span: SourceSpan?
    /// The parts of the message. Errors are ordinary values in the language (`&&` and `||`
    /// absorb them), so most are never read: the text is only put together when asked for.
    var detail: Detail

    enum Detail: Sendable {
        case text(String)
        case undefinedProperty(String)
        case unsupported(String)
        /// `op` applied to an operand of the type named.
        case unsupportedUnary(op: String, typeName: String)
        case unsupportedBinary(lhs: String, op: String, rhs: String)
        case typeError(typeName: String)
        case nullValue

        var message: String {
            switch self {
            case .text(let text): text
            case .undefinedProperty(let name): "Property \(name) is undefined on object."
            case .unsupported(let what): "Unsupported operation error. Received: \(what)."
            case .unsupportedUnary(let op, let typeName): "Unsupported operation error. Received: \(op)\(typeName)."
            case .unsupportedBinary(let lhs, let op, let rhs): "Unsupported operation error. Received: \(lhs) \(op) \(rhs)."
            case .typeError(let typeName): "Type error. Received: [\(typeName)]"
            case .nullValue: "Null value error."
            }
        }
    }

    package init(_ code: Code, _ message: String, span: SourceSpan? = nil) {
        self.init(code, .text(message), span: span)
    }

    init(_ code: Code, _ detail: Detail, span: SourceSpan?) {
        self.code = code
        self.detail = detail
        self.span = span
    }

    package var description: String { message }

    package static func == (lhs: EvaluationError, rhs: EvaluationError) -> Bool {
        lhs.code == rhs.code && lhs.span == rhs.span && lhs.message == rhs.message
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(span)
    }

    static func undefinedProperty(_ name: String, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.undefinedProperty, .undefinedProperty(name), span: span)
    }

    static func unsupported(_ what: String, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.unsupportedOperation, .unsupported(what), span: span)
    }

    static func unsupported(_ op: String, _ operand: Value, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.unsupportedOperation, .unsupportedUnary(op: op, typeName: operand.typeName), span: span)
    }

    static func unsupported(_ lhs: Value, _ op: String, _ rhs: Value, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.unsupportedOperation, .unsupportedBinary(lhs: lhs.typeName, op: op, rhs: rhs.typeName), span: span)
    }

    static func nullValue(_ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.nullValue, .nullValue, span: span)
    }

    static func overflow(_ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.overflow, "Integer value is out of the [-9223372036854775808, 9223372036854775807] range.", span: span)
    }

    static func indexOutOfBounds(_ index: Int64, size: Int, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.indexOutOfBounds, "Index out of bound error. Index: [\(index)] , size: [\(size)].", span: span)
    }

    static func typeError(_ received: Value, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.typeError, .typeError(typeName: received.typeName), span: span)
    }

    static func functionNotFound(_ name: String, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.functionNotFound, "Function not found error: Name: [\(name)].", span: span)
    }

    static func conversion(_ argument: String, from: String, to: String, _ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.invalidArgument, "Type conversion error. Argument: [\(argument)], From type: [\(from)], To type: [\(to)].", span: span)
    }
}
