// "Check a property" and "Compare with the served version": the symbolic analysis of
// `regimen rules prove` and `regimen rules diff`, asked of the simulator's chosen policy through
// POST /v1/playground/simulator/prove and /compare (they exist only while the service offers the
// playground). Every counterexample shown was replayed through the evaluator by the service.
"use strict";

const PolicyChecks = (() => {
  const { el, fill } = DOM;
  const $ = (id) => document.getElementById(id);

  /** One verdict for people: proved, a counterexample to paste, or why neither. */
  function verdictView(verdict, words) {
    switch (verdict.result) {
      case "proved":
        return el("span", { text: words.proved });
      case "counterexample":
        return el("div", {},
          el("strong", { class: "found", text: words.found }),
          " — counterexample, confirmed by replay (a security_tests case):",
          el("pre", { text: verdict.testCase }));
      case "possible":
        return el("div", {},
          el("strong", { text: `${words.found}? possible, unconfirmed` }), `: ${verdict.reason}`,
          verdict.abstractions.length === 0 ? null : el("div", { class: "hint", text: "The encoding abstracts: "
            + verdict.abstractions.map((a) => (a.location ? `${a.construct} at ${a.location}` : a.construct)).join("; ") }));
      default:
        return el("span", { text: `unknown (${verdict.reason})` });
    }
  }

  async function ask(form, button, status, problems, result, path, body, show) {
    Simulator.showProblems(problems, []);
    button.disabled = true;
    status.textContent = "Asking the solver…";
    try {
      const { json } = await RegimenAPI.post(path, body());
      // Shown before it is filled: focus can only move into a visible verdict.
      $(result).hidden = false;
      show(json);
    } catch (error) {
      $(result).hidden = true;
      status.textContent = "";
      Simulator.showProblems(problems, error.problems || [{ message: String(error.message || error), field: error.field }]);
    } finally {
      button.disabled = false;
    }
  }

  function proveBody() {
    const pattern = $("sim-prove-path").value.trim();
    if (!pattern.startsWith("/")) throw { message: "Give a path pattern starting with /, such as /users/{uid}/**.", field: "sim-prove-path" };
    const body = { ...Simulator.policyChoice(), scope: `${$("sim-prove-method").value} ${pattern}` };
    const kind = $("sim-prove-kind").value;
    if (kind === "assert") {
      const condition = $("sim-prove-assert").value.trim();
      if (!condition) throw { message: "Write the condition every allowed request must satisfy.", field: "sim-prove-assert" };
      body.assert = condition;
    } else {
      body.query = kind;
    }
    return body;
  }

  function showProof(json) {
    const verdict = $("sim-prove-verdict");
    verdict.className = `verdict ${json.proved ? "allow" : "deny"}`;
    fill("sim-prove-verdict", el("strong", { text: json.proved ? "PROVED" : "NOT PROVED" }),
      json.proved ? ` for every request in ${json.scope}` : ` for ${json.scope}: see the request shapes below`);
    fill("sim-prove-entries", json.entries.map((entry) => el("li", {},
      el("code", { text: `${entry.method} ${entry.path}` }), ": ",
      verdictView(entry.verdict, { proved: "proved", found: "does not hold" }))));
    $("sim-prove-status").textContent = json.proved ? "Proved." : "Not proved.";
    verdict.focus();
  }

  function compareBody() {
    const name = $("sim-policy").value;
    if (!name) throw { message: "Choose a served policy above: the edit is compared with its served version.", field: "sim-policy" };
    const text = $("sim-compare-text").value;
    if (text.trim() === "") throw { message: "Load the served text and edit it, or paste the edited policy.", field: "sim-compare-text" };
    return { policy: name, policyText: text };
  }

  function showComparison(json) {
    const summary = $("sim-compare-summary");
    summary.className = `verdict ${json.equivalent ? "allow" : "deny"}`;
    fill("sim-compare-summary", el("strong", { text: json.equivalent ? "EQUIVALENT (PROVED)" : "DIFFERENT" }),
      ` ${json.entries.length} path/method pairs: ${json.differences} difference${json.differences === 1 ? "" : "s"} with a confirmed counterexample, ${json.open} unconfirmed or unknown.`);
    fill("sim-compare-entries", json.entries.map((entry) => el("li", {},
      el("code", { text: `${entry.method} ${entry.path}` }), ": ",
      entry.equivalent ? el("span", { text: "equivalent (proved)" }) : el("div", {},
        verdictView(entry.newlyAllows, { proved: "allows nothing new (proved)", found: "newly allows" }),
        verdictView(entry.newlyDenies, { proved: "denies nothing new (proved)", found: "newly denies" })))));
    $("sim-compare-status").textContent = json.equivalent ? "Equivalent." : `${json.differences} difference(s).`;
    summary.focus();
  }

  async function loadServed() {
    const status = $("sim-compare-status");
    const name = $("sim-policy").value;
    if (!name) {
      status.textContent = "Choose a served policy above first.";
      return;
    }
    try {
      $("sim-compare-text").value = await Simulator.currentPolicyText({ policy: name });
      status.textContent = `Loaded the served ${name}.`;
    } catch (_) {
      status.textContent = `The service did not send the text of ${name}.`;
    }
  }

  function kindChanged() {
    $("sim-prove-assert-field").hidden = $("sim-prove-kind").value !== "assert";
  }

  function start() {
    const proveForm = $("sim-prove-form");
    if (!proveForm) return;
    $("sim-prove-kind").addEventListener("change", kindChanged);
    proveForm.addEventListener("submit", (event) => {
      event.preventDefault();
      ask(proveForm, $("sim-prove"), $("sim-prove-status"), "sim-prove-problems", "sim-prove-result", "/v1/playground/simulator/prove", proveBody, showProof);
    });
    const compareForm = $("sim-compare-form");
    compareForm.addEventListener("submit", (event) => {
      event.preventDefault();
      ask(compareForm, $("sim-compare"), $("sim-compare-status"), "sim-compare-problems", "sim-compare-result", "/v1/playground/simulator/compare", compareBody, showComparison);
    });
    $("sim-compare-load").addEventListener("click", loadServed);
    kindChanged();
  }

  document.addEventListener("DOMContentLoaded", start);
  return { verdictView };
})();
