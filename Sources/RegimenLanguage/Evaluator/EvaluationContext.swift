/// The mutable state of one evaluation: variable values, function frames and counters.
///
/// A context is created per evaluation on the evaluating thread; the compiled program it runs is
/// immutable and shared.
struct EvaluationContext: ~Copyable {
    enum LocalSlot {
        case value(Value)
        /// Boxed: an error is several times the size of a value, and frames are pushed and popped
        /// on every call, while an argument that fails is rare.
        indirect case failed(EvaluationError)
        /// A `let` not yet evaluated: its index in the function's `lets`, and its function.
        case pending(function: Int, letIndex: Int)
        case evaluating
    }

    /// Values of the environment's variables, in slot order. Borrowed for the evaluation (the
    /// caller's array, or a buffer on the caller's stack), never owned: the context lives only
    /// inside the call that made it, and the evaluator checked the count when it began.
    let globals: UnsafeBufferPointer<Value>
    package var limits: EvaluationLimits
    var host: (any EvaluationHost)?
    package var tracer: (any EvaluationTracer)?
    /// Nodes evaluated so far.
    package private(set) var steps = 0
    /// Work charged so far, in the units of the cost table (``Cost``).
    package internal(set) var cost = 0

    /// The function table, borrowed like `globals` (the program that owns it outlives the
    /// evaluation): an owned array was retained and released on every evaluation.
    let functions: UnsafeBufferPointer<CompiledFunction>
    var locals: [LocalSlot] = []
    var frameBase = 0
    var callDepth = 0

    @inline(__always)
    init(globals: UnsafeBufferPointer<Value>, functions: UnsafeBufferPointer<CompiledFunction>, limits: EvaluationLimits, host: (any EvaluationHost)?, tracer: (any EvaluationTracer)?) {
        self.globals = globals
        self.functions = functions
        self.limits = limits
        self.host = host
        self.tracer = tracer
    }

    /// Counts one evaluated node and enforces the step bound.
    @inline(__always)
    mutating func step(_ span: SourceSpan) throws(EvaluationError) {
        steps &+= 1
        if steps > limits.maxSteps {
            throw EvaluationError(.limitExceeded, "Expression is too complex to evaluate: more than \(limits.maxSteps) steps.", span: span)
        }
    }

    mutating func callHost(_ index: Int, _ values: [Value], _ span: SourceSpan) throws(EvaluationError) -> Value {
        guard let host else {
            throw EvaluationError(.functionNotFound, "Function not found error: no document access in this context.", span: span)
        }
        do {
            return try host.callHost(index, name: "", arguments: values)
        } catch {
            var located = error
            if located.span == nil { located.span = span }
            throw located
        }
    }

    mutating func readLocal(_ slot: Int, _ span: SourceSpan) throws(EvaluationError) -> Value {
        let index = frameBase + slot
        switch locals[index] {
        case .value(let v):
            return v
        case .failed(let e):
            throw e
        case .evaluating:
            throw EvaluationError(.unsupportedOperation, "A let binding refers to itself.", span: span)
        case .pending(let function, let letIndex):
            locals[index] = .evaluating
            do {
                let value = tracer == nil ? try functions[function].lets[letIndex](&self) : try functions[function].tracedLets[letIndex](&self)
                locals[index] = .value(value)
                return value
            } catch {
                locals[index] = .failed(error)
                throw error
            }
        }
    }

    /// Enforces the call-depth bound and counts one more level; the caller takes it off again.
    @inline(__always)
    mutating func enterCall(_ span: SourceSpan) throws(EvaluationError) {
        guard callDepth < limits.maxCallDepth else {
            throw EvaluationError(.limitExceeded, "Maximum function call depth of \(limits.maxCallDepth) exceeded.", span: span)
        }
        callDepth += 1
    }

    mutating func call(_ index: Int, _ arguments: [Evaluator], _ span: SourceSpan) throws(EvaluationError) -> Value {
        guard callDepth < limits.maxCallDepth else {
            throw EvaluationError(.limitExceeded, "Maximum function call depth of \(limits.maxCallDepth) exceeded.", span: span)
        }
        let function = functions[index]
        let frame = pushFrame(function, index, arguments)
        defer { popFrame(frame) }
        return tracer == nil ? try function.result(&self) : try function.tracedResult(&self)
    }

    /// ``call(_:_:_:)`` asking only for the verdict (see ``GrantCompiler``); a call too deep is
    /// an error.
    mutating func callGrant(_ index: Int, _ arguments: [Evaluator], _ span: SourceSpan) -> GrantVerdict {
        guard callDepth < limits.maxCallDepth else { return .failed }
        let function = functions[index]
        let frame = pushFrame(function, index, arguments)
        defer { popFrame(frame) }
        return function.grantResult(&self)
    }

    /// Where a frame starts and the base to go back to.
    struct Frame {
        var base: Int
        var savedBase: Int
    }

    /// Evaluates the arguments into a new frame, adds the pending `let`s, and enters it.
    private mutating func pushFrame(_ function: CompiledFunction, _ index: Int, _ arguments: [Evaluator]) -> Frame {
        // The frame is pushed slot by slot: arguments are evaluated in the caller's frame, and a
        // call inside an argument pushes and pops its own frame above the slots pushed so far.
        let newBase = locals.count
        if locals.capacity == 0 { locals.reserveCapacity(16) }
        for argument in arguments {
            // An argument error surfaces only if the parameter is used.
            let slot: LocalSlot
            do {
                slot = .value(try argument(&self))
            } catch {
                slot = .failed(error)
            }
            locals.append(slot)
        }
        for letIndex in function.lets.indices { locals.append(.pending(function: index, letIndex: letIndex)) }
        let frame = Frame(base: newBase, savedBase: frameBase)
        frameBase = newBase
        callDepth += 1
        return frame
    }

    private mutating func popFrame(_ frame: Frame) {
        callDepth -= 1
        frameBase = frame.savedBase
        locals.removeLast(max(0, locals.count - frame.base))
    }
}

extension Value {
    /// The ordered map type used for `.map` values.
    public typealias Map = OrderedDictionary<String, Value>
}

public import OrderedCollections
