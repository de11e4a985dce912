/// The value sort and operator definitions every query script starts with: a tagged union of the
/// rules language's values (``SymbolicValue``), with errors as a value (`verr`), so that `&&` /
/// `||` absorb errors exactly as the emulator does and an erroring `allow` is a non-match.
///
/// - `vnone` marks an absent map field; it never escapes a field read (reading it is `verr`).
/// - `vspecial` is a NaN (0), +Infinity (1) or -Infinity (2) float, ordered as the evaluator
///   orders doubles (`speclt`/`specle`, used when one side is special: every comparison with NaN
///   is false, -Infinity is below and +Infinity above every other number); `vother` is a value
///   of a type the encoding keeps opaque (bytes, duration, path, latlng, set, map diff), handled
///   soundly by uninterpreted functions, so a proof over it stays a proof.
/// - Maps and lists are opaque ids; their fields are read through separate variables per field
///   path, and their equality is uninterpreted. A list read from data has a length (`llen` of
///   its id) and elements (`lelem`): membership and `hasAll`/`hasAny`/`hasOnly` of a literal list
///   are exact up to ``SymbolicEncoder/listBound`` elements and abstract beyond, `size()` exact.
/// - `veq` is `==` (`1 == 1.0`); `vseq` is how a list compares its elements for `in` (`1.0 in
///   [1]` is false: an int and a float are never the same element).
enum SMTPrelude {
    static let text = """
    (set-option :produce-models true)
    (declare-datatypes () ((V vnull vnone verr (vbool (vb Bool)) (vint (vi Int)) (vflt (vf Real)) (vspecial (vk Int)) (vstr (vs String)) (vts (vt Int)) (vmap (vm Int)) (vlist (vl Int)) (vother (vo Int)))))
    (declare-fun meq (Int Int) Bool)
    (declare-fun llen (Int) Int)
    (declare-fun lelem (Int Int) V)
    (declare-fun leq (Int Int) Bool)
    (declare-fun oeq (Int Int) Bool)
    (declare-fun otype (Int String) Bool)
    (define-fun isnan ((a V)) Bool (and (is-vspecial a) (= (vk a) 0)))
    (define-fun isposinf ((a V)) Bool (and (is-vspecial a) (= (vk a) 1)))
    (define-fun isneginf ((a V)) Bool (and (is-vspecial a) (= (vk a) 2)))
    (define-fun speclt ((a V) (b V)) Bool (and (not (isnan a)) (not (isnan b)) (or (and (isneginf a) (not (isneginf b))) (and (isposinf b) (not (isposinf a))))))
    (define-fun specle ((a V) (b V)) Bool (and (not (isnan a)) (not (isnan b)) (or (isneginf a) (isposinf b))))
    (define-fun absreal ((x Real)) Real (ite (< x 0.0) (- x) x))
    (define-fun isnum ((a V)) Bool (or (is-vint a) (is-vflt a)))
    (define-fun num ((a V)) Real (ite (is-vint a) (to_real (vi a)) (vf a)))
    (define-fun inrange ((x Int)) Bool (and (>= x (- 9223372036854775808)) (<= x 9223372036854775807)))
    (define-fun iop ((r Int)) V (ite (inrange r) (vint r) verr))
    (define-fun veq ((a V) (b V)) V
      (ite (or (is-verr a) (is-verr b)) verr
      (vbool (ite (and (isnum a) (isnum b)) (= (num a) (num b))
             (ite (or (is-vspecial a) (is-vspecial b)) (and (is-vspecial a) (is-vspecial b) (= (vk a) (vk b)) (not (= (vk a) 0)))
             (ite (and (is-vmap a) (is-vmap b)) (meq (vm a) (vm b))
             (ite (and (is-vlist a) (is-vlist b)) (leq (vl a) (vl b))
             (ite (and (is-vother a) (is-vother b)) (oeq (vo a) (vo b))
             (= a b)))))))))
    (define-fun vseq ((a V) (b V)) V
      (ite (or (is-verr a) (is-verr b)) verr
      (ite (or (and (is-vint a) (is-vflt b)) (and (is-vflt a) (is-vint b))) (vbool false)
      (veq a b))))
    (define-fun vne ((a V) (b V)) V (ite (is-verr (veq a b)) verr (vbool (not (vb (veq a b))))))
    (define-fun numlike ((a V)) Bool (or (isnum a) (is-vspecial a)))
    (define-fun vlt ((a V) (b V)) V
      (ite (or (is-verr a) (is-verr b)) verr
      (ite (and (isnum a) (isnum b)) (vbool (< (num a) (num b)))
      (ite (and (numlike a) (numlike b)) (vbool (speclt a b))
      (ite (and (is-vstr a) (is-vstr b)) (vbool (str.< (vs a) (vs b)))
      (ite (and (is-vts a) (is-vts b)) (vbool (< (vt a) (vt b)))
      verr))))))
    (define-fun vle ((a V) (b V)) V
      (ite (or (is-verr a) (is-verr b)) verr
      (ite (and (isnum a) (isnum b)) (vbool (<= (num a) (num b)))
      (ite (and (numlike a) (numlike b)) (vbool (specle a b))
      (ite (and (is-vstr a) (is-vstr b)) (vbool (str.<= (vs a) (vs b)))
      (ite (and (is-vts a) (is-vts b)) (vbool (<= (vt a) (vt b)))
      verr))))))
    (define-fun vnot ((a V)) V (ite (is-vbool a) (vbool (not (vb a))) verr))
    (define-fun vand ((a V) (b V)) V
      (ite (= a (vbool false)) (vbool false)
      (ite (= a (vbool true)) (ite (is-vbool b) b verr)
      (ite (= b (vbool false)) (vbool false) verr))))
    (define-fun vor ((a V) (b V)) V
      (ite (= a (vbool true)) (vbool true)
      (ite (= a (vbool false)) (ite (is-vbool b) b verr)
      (ite (= b (vbool true)) (vbool true) verr))))
    (define-fun vite ((c V) (t V) (f V)) V (ite (= c (vbool true)) t (ite (= c (vbool false)) f verr)))
    (define-fun istrue ((a V)) Bool (= a (vbool true)))
    (define-fun okvalue ((a V)) Bool (and (not (is-vnone a)) (not (is-verr a)) (=> (is-vint a) (inrange (vi a))) (=> (is-vspecial a) (and (>= (vk a) 0) (<= (vk a) 2)))))

    """

    /// Extra restrictions for the first, concrete-friendly attempt at a counterexample: values a
    /// test file can spell exactly (short strings, floats of moderate size (printed as the nearest double; the replay decides), whole-second
    /// timestamps, no opaque values). Never used for proofs.
    static func concreteValue(_ v: String, allowingLists: Bool = false, textBound: Int = 40) -> String {
        "(and (not (is-vspecial \(v))) (not (is-vother \(v)))\(allowingLists ? "" : " (not (is-vlist \(v)))") (=> (is-vstr \(v)) (<= (str.len (vs \(v))) \(textBound))) (=> (is-vflt \(v)) (and (< (vf \(v)) 1000000.0) (> (vf \(v)) (- 1000000.0)))) (=> (is-vint \(v)) (and (< (vi \(v)) 1000000000) (> (vi \(v)) (- 1000000000)))) (=> (is-vts \(v)) (and (= (mod (vt \(v)) 1000000000) 0) (>= (vt \(v)) 0) (<= (vt \(v)) 4102444800000000000))))"
    }

    /// `text` as an SMT-LIB string literal (every character outside printable ASCII, and the
    /// backslash, as a `\\u{…}` escape; `"` doubled).
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\"\""
            case 0x5C: out += "\\u{5c}"
            case 0x20...0x7E: out.unicodeScalars.append(scalar)
            default: out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + "\""
    }
}
