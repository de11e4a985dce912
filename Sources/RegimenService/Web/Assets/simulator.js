// The security simulator: decide one request against a served or pasted policy and see why
// (every evaluated allow statement, and the sub-expression that decided marked in the policy
// text), or run a security-tests text and see its results and per-sub-expression coverage.
// It talks to POST /v1/playground/simulator/decide and /test, which exist only while the
// service offers the playground; the section stays hidden otherwise.
"use strict";

const Simulator = (() => {
  const { el, fill } = DOM;
  const $ = (id) => document.getElementById(id);

  /** Reads a JSON text field; an empty field is `fallback`. Throws a problem naming the field. */
  function jsonField(id, label, fallback) {
    const text = $(id).value.trim();
    if (text === "") return fallback;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw { message: `${label} is not valid JSON: ${error.message}`, field: id };
    }
  }

  function showProblems(containerId, problems) {
    const container = $(containerId);
    for (const marked of document.querySelectorAll(`#${containerId} ~ * [aria-invalid], .simulator [aria-invalid]`)) marked.removeAttribute("aria-invalid");
    if (!problems || problems.length === 0) {
      container.hidden = true;
      container.replaceChildren();
      return;
    }
    container.replaceChildren(
      el("p", { text: problems.length === 1 ? "One problem:" : `${problems.length} problems:` }),
      el("ul", {}, problems.map((p) => el("li", {}, p.path ? el("code", { text: p.path }) : null, p.path ? " " : null, p.message))),
    );
    container.hidden = false;
    for (const problem of problems) if (problem.field) $(problem.field).setAttribute("aria-invalid", "true");
    container.focus();
  }

  /** The policy the form names: a served one, or the pasted text. */
  function policyChoice() {
    const name = $("sim-policy").value;
    if (name) return { policy: name };
    const text = $("sim-policy-text").value;
    if (text.trim() === "") throw { message: "Paste a policy, or choose one the service serves.", field: "sim-policy-text" };
    return { policyText: text, syntax: $("sim-syntax").value };
  }

  function decideBody() {
    const body = { ...policyChoice(), method: $("sim-method").value, path: $("sim-path").value.trim() };
    if (!body.path) throw { message: "Give the document path, such as users/alice.", field: "sim-path" };
    if ($("sim-signed-out").checked) {
      body.auth = null;
    } else {
      const uid = $("sim-uid").value.trim();
      if (!uid) throw { message: "Give the signed-in user's uid, or tick Signed out.", field: "sim-uid" };
      body.auth = { uid, token: jsonField("sim-claims", "Token claims", {}) };
    }
    const data = jsonField("sim-data", "Request data", null);
    if (data !== null) body.data = data;
    body.documents = jsonField("sim-documents", "Stored documents", {});
    const time = $("sim-time").value.trim();
    if (time) body.time = time;
    return body;
  }

  /**
   * The policy text as numbered lines, with `ranges` ({start, end} scalar offsets, a label and a
   * class) wrapped in <mark>: each mark starts with hidden text saying what it is, so the
   * highlight is not told by colour alone.
   */
  function sourceView(text, ranges) {
    const scalars = Array.from(text); // one entry per Unicode scalar, as the offsets count
    const lines = [];
    let start = 0;
    for (let i = 0; i <= scalars.length; i += 1) {
      if (i === scalars.length || scalars[i] === "\n") {
        lines.push([start, i]);
        start = i + 1;
      }
    }
    if (lines.length > 1 && lines[lines.length - 1][0] === scalars.length) lines.pop();
    const list = el("ol", { class: "source" });
    lines.forEach(([from, to], index) => {
      const item = el("li");
      let position = from;
      const pieces = ranges
        .filter((r) => r.start < to && r.end > from || (r.start === r.end && r.start >= from && r.start <= to))
        .map((r) => ({ ...r, from: Math.max(r.start, from), to: Math.min(Math.max(r.end, r.start), to) }))
        .sort((a, b) => a.from - b.from || b.to - a.to);
      for (const piece of pieces) {
        if (piece.from < position) continue; // nested or overlapping: the outer mark already shows it
        if (piece.from > position) item.append(scalars.slice(position, piece.from).join(""));
        const mark = el("mark", { class: piece.className, title: piece.title || null },
          el("span", { class: "visually-hidden", text: `${piece.label}: ` }),
          scalars.slice(piece.from, piece.to).join(""),
          el("span", { class: "visually-hidden", text: ` (end of ${piece.label.toLowerCase()})` }));
        item.append(mark);
        position = piece.to;
      }
      if (position < to) item.append(scalars.slice(position, to).join(""));
      if (item.childNodes.length === 0) item.append("\u00a0");
      list.append(item);
    });
    return list;
  }

  function offsets(range) {
    return { start: range.start.offset, end: range.end.offset };
  }

  function where(point) {
    return `line ${point.line}, column ${point.column}`;
  }

  function showDecision(answer) {
    const allowed = answer.decision === "allow";
    const verdict = fill("sim-verdict",
      el("strong", { text: allowed ? "ALLOW" : "DENY" }), " ",
      el("span", { text: answer.reason }));
    verdict.className = `verdict ${allowed ? "allow" : "deny"}`;
    const deciding = answer.deciding || [];
    fill("sim-reason", deciding.length === 0
      ? el("p", { text: allowed ? "Granted by a statement without a condition." : "No allow statement matched this request, so it is denied." })
      : el("ul", {}, deciding.map((range) => el("li", {},
        el("code", { class: "reason-text", text: range.text }), ` at ${where(range.start)} was ${range.outcome}`,
        range.operands.length ? ` (${range.operands.map((o) => `${o.text} = ${o.value}`).join(", ")})` : "",
        range.via.length ? ` in ${range.via.join(" → ")}` : ""))));
    fill("sim-evaluations", answer.evaluations.length === 0
      ? el("li", { class: "empty", text: "No allow statement matched the path and method." })
      : answer.evaluations.map((evaluation) => el("li", { class: `outcome-${evaluation.outcome}` },
        el("strong", { text: evaluation.statement }), ` (line ${evaluation.location.line}): `,
        el("span", { class: "outcome", text: evaluation.outcome === "true" ? "true — grants" : evaluation.outcome === "false" ? "false" : `error: ${evaluation.error}` }),
        evaluation.range ? el("div", { class: "hint" }, "because ", el("code", { text: evaluation.range.text }), ` (${where(evaluation.range.start)})`) : null)));
    const marks = deciding.map((range) => ({
      ...offsets(range), className: allowed ? "decided allow" : "decided deny",
      label: allowed ? "Granting condition" : "Deciding sub-expression",
      title: `${range.text} was ${range.outcome}`,
    }));
    fill("sim-source", sourceView(answer.policy.text, marks));
    $("sim-source-title").textContent = `Policy text: ${answer.policy.file}`;
    $("sim-result").hidden = false;
    const first = document.querySelector("#sim-source mark");
    if (first) first.scrollIntoView({ block: "nearest" });
    $("sim-verdict").focus();
  }

  async function decide(event) {
    event.preventDefault();
    const status = $("sim-status");
    let body;
    try {
      body = decideBody();
    } catch (problem) {
      showProblems("sim-problems", [problem]);
      return;
    }
    showProblems("sim-problems", []);
    status.textContent = "Deciding…";
    $("sim-decide").disabled = true;
    try {
      const { json } = await RegimenAPI.post("/v1/playground/simulator/decide", body);
      showDecision(json);
      status.textContent = `Decided: ${json.decision}.`;
    } catch (error) {
      $("sim-result").hidden = true;
      status.textContent = "";
      showProblems("sim-problems", error.problems || [{ message: String(error.message || error) }]);
    } finally {
      $("sim-decide").disabled = false;
    }
  }

  function coverageTable(coverage) {
    const rows = coverage.subExpressions.map((entry) => el("tr", { class: entry.evaluated === 0 ? "never" : null },
      el("td", { class: "num", text: `${entry.start.line}:${entry.start.column}` }),
      el("td", {}, el("code", { text: entry.text })),
      el("td", {}, entry.evaluated === 0 ? el("strong", { text: "Never evaluated" }) : entry.summary)));
    return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "sim-coverage-title" },
      el("table", {},
        el("caption", { text: `Statements ${coverage.statements.covered}/${coverage.statements.total} · functions ${coverage.functions.covered}/${coverage.functions.total} · sub-expressions ${coverage.subExpressions.filter((e) => e.evaluated > 0).length}/${coverage.subExpressions.length} evaluated` }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num", text: "Where" }), el("th", { scope: "col", text: "Sub-expression" }), el("th", { scope: "col", text: "Evaluations and values" }))),
        el("tbody", {}, rows)));
  }

  async function runTests(event) {
    event.preventDefault();
    const status = $("sim-tests-status");
    let body;
    try {
      body = { ...policyChoice(), tests: $("sim-tests").value };
      if (body.tests.trim() === "") throw { message: "Paste a security-tests file, or load the policy's own.", field: "sim-tests" };
    } catch (problem) {
      showProblems("sim-tests-problems", [problem]);
      return;
    }
    showProblems("sim-tests-problems", []);
    status.textContent = "Running…";
    $("sim-run").disabled = true;
    try {
      const { json } = await RegimenAPI.post("/v1/playground/simulator/test", body);
      const results = json.results;
      fill("sim-tests-summary", el("strong", { text: `${results.passed} passed, ${results.failed} failed` }));
      fill("sim-cases", results.cases.map((c) => el("li", { class: c.passed ? "pass" : "fail" },
        el("strong", { text: c.passed ? "PASS" : "FAIL" }), ` ${c.name}`,
        c.passed ? null : el("div", { class: "hint", text: `expected ${c.expected}, got ${c.actual}: ${c.reason || ""}` }))));
      fill("sim-coverage", coverageTable(json.coverage));
      const never = json.coverage.subExpressions.filter((e) => e.evaluated === 0).map((e) => ({
        ...offsets(e), className: "never", label: "Never evaluated", title: `${e.text}: never evaluated`,
      }));
      fill("sim-coverage-source", sourceView((await currentPolicyText(body)) || "", never));
      $("sim-tests-result").hidden = false;
      status.textContent = `${results.passed} passed, ${results.failed} failed.`;
    } catch (error) {
      $("sim-tests-result").hidden = true;
      status.textContent = "";
      showProblems("sim-tests-problems", error.problems || [{ message: String(error.message || error) }]);
    } finally {
      $("sim-run").disabled = false;
    }
  }

  /** The text of the chosen policy (served: from the service's file; pasted: the field). */
  async function currentPolicyText(choice) {
    if (choice.policyText !== undefined) return choice.policyText;
    const file = servedFiles.get(choice.policy);
    if (!file) return "";
    const answer = await RegimenAPI.get(`/v1/playground/file?path=${encodeURIComponent(file)}`);
    return answer.text;
  }

  /** Policy name → its served file path (rules/security/NAME.rules or .yaml). */
  const servedFiles = new Map();

  async function loadTests() {
    const name = $("sim-policy").value;
    const status = $("sim-tests-status");
    if (!name) {
      status.textContent = "A pasted policy has no test file of its own; paste one.";
      return;
    }
    try {
      const answer = await RegimenAPI.get(`/v1/playground/file?path=${encodeURIComponent(`rules/security/${name}.tests.yaml`)}`);
      $("sim-tests").value = answer.text;
      status.textContent = `Loaded rules/security/${name}.tests.yaml.`;
    } catch (_) {
      status.textContent = `The service has no test file for ${name}.`;
    }
  }

  function policyChanged() {
    const pasted = $("sim-policy").value === "";
    $("sim-paste").hidden = !pasted;
  }

  async function start(info) {
    const section = $("simulator");
    if (!section) return;
    const policies = await RegimenAPI.get("/v1/policies");
    const select = $("sim-policy");
    for (const policy of policies.policies) {
      // The name alone, so it fits the list at 390 px; the service is the option's title.
      select.append(el("option", { value: policy.name, text: policy.name, title: `${policy.name} (${policy.service})` }));
    }
    for (const file of info.files || []) {
      const match = /^rules\/security\/(.+)\.(rules|yaml|yml)$/.exec(file.path);
      if (match && !match[1].endsWith(".tests")) servedFiles.set(match[1], file.path);
    }
    if (policies.policies.some((p) => p.name === "workout-tracker/appendix-a")) select.value = "workout-tracker/appendix-a";
    policyChanged();
    select.addEventListener("change", policyChanged);
    $("sim-signed-out").addEventListener("change", () => {
      for (const id of ["sim-uid", "sim-claims"]) $(id).disabled = $("sim-signed-out").checked;
    });
    $("sim-form").addEventListener("submit", decide);
    $("sim-tests-form").addEventListener("submit", runTests);
    $("sim-load-tests").addEventListener("click", loadTests);
  }

  document.addEventListener("DOMContentLoaded", async () => {
    try {
      // The page's tool switcher (views.js), when present, shows the section and fetched the rules info.
      const switcher = typeof Views === "undefined" ? null : Views;
      const info = switcher ? await switcher.rules : await RegimenAPI.get("/v1/rules");
      if (info.playground !== true) return;
      if (!switcher) {
        // Without the page's tool switcher the section and its link simply show.
        for (const element of document.querySelectorAll("[data-simulator]")) element.hidden = false;
      }
      await start(info);
    } catch (_) {
      // The service is unreachable: the planner reports that; the simulator stays hidden.
    }
  });

  return { sourceView, policyChoice, showProblems, currentPolicyText };
})();
