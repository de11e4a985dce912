// The planner: the profile form, the accuracy meter (the engine's indexes route), the plan
// (plans + supplements routes) and the weekly check-in (adapt route).
"use strict";

(() => {
  const { el, fill, debounce, download, showProblems } = DOM;
  const profileForm = document.getElementById("profile-form");
  const checkinForm = document.getElementById("checkin-form");

  // The meter's levels in the order of rules/accuracy-ladder.yaml; a level the page does not
  // know is still shown by name.
  const accuracyLevels = { low: [1, "Low"], med: [2, "Medium"], high: [3, "High"], highest: [4, "Highest"] };

  /** The profile as the API reads it: only the answers given, numbers as numbers. */
  function profile() {
    const data = new FormData(profileForm);
    const out = {};
    const overrides = {};
    for (const [name, raw] of data.entries()) {
      const value = String(raw).trim();
      if (value === "" || name === "injuries" || name === "exclusions") continue;
      const control = profileForm.elements[name];
      const isNumber = control && control.type === "number";
      let parsed = isNumber ? Number(value) : value;
      if (isNumber && !Number.isFinite(parsed)) parsed = value;
      if (name === "pregnant" || name === "hypertension") parsed = value === "true";
      if (name === "schedule_days") parsed = Number(value);
      if (name === "medications") parsed = value.split(",").map((x) => x.trim()).filter(Boolean);
      if (name.startsWith("overrides.")) overrides[name.slice(10)] = parsed;
      else out[name] = parsed;
    }
    const injuries = data.getAll("injuries");
    if (injuries.length) out.injuries = injuries;
    const exclusions = data.getAll("exclusions");
    if (exclusions.length) out.exclusions = exclusions;
    if (Object.keys(overrides).length) out.overrides = overrides;
    return out;
  }

  const ready = (p) => p.sex !== undefined && p.schedule_days !== undefined;

  // ---- Accuracy meter -------------------------------------------------------------------

  let indexesRequest = 0;

  async function refreshIndexes() {
    const current = profile();
    const problems = document.getElementById("profile-problems");
    if (!ready(current)) {
      document.getElementById("accuracy-meter").value = 0;
      fill("accuracy-level", "Choose sex and training days to start.");
      fill("accuracy-hint");
      return;
    }
    const mine = ++indexesRequest;
    try {
      const { json, text } = await RegimenAPI.post("/v1/indexes", current);
      if (mine !== indexesRequest) return;
      showProblems(problems, profileForm, []);
      const [value, label] = accuracyLevels[json.accuracy] || [0, json.accuracy];
      document.getElementById("accuracy-meter").value = value;
      document.getElementById("accuracy-meter").setAttribute("aria-valuetext", `${label} accuracy`);
      fill("accuracy-level", `${label} accuracy`, json.method ? ` (${Render.words(json.method)})` : "");
      const tip = (json.tips || []).find((t) => /^add\b/i.test(t));
      fill("accuracy-hint", json.next_best_input ? (tip || `Add ${Render.words(json.next_best_input)} to improve.`) : "Every input that improves accuracy is given.");
      fill("indexes",
        el("dt", { text: "BMR" }), el("dd", { text: `${Render.number(json.BMR)} kcal` }),
        el("dt", { text: "TDEE" }), el("dd", { text: `${Render.number(json.TDEE)} kcal` }),
        el("dt", { text: "BMI" }), el("dd", { text: json.BMI === null ? "needs height and weight" : Render.number(json.BMI, 1) }),
        el("dt", { text: "WHtR" }), el("dd", { text: json.WHtR === null ? "needs waist and height" : Render.number(json.WHtR, 2) }),
        el("dt", { text: "FFMI" }), el("dd", { text: json.FFMI === null ? "needs body fat" : Render.number(json.FFMI, 1) }));
      download(document.getElementById("indexes-json"), "indexes.json", text);
    } catch (error) {
      if (mine !== indexesRequest) return;
      if (error instanceof RegimenAPI.ServiceProblems) showProblems(problems, profileForm, error.problems);
      else fill("accuracy-level", "The service cannot be reached.");
    }
    showRevision();
  }

  function showRevision() {
    const revision = RegimenAPI.revision();
    if (revision) fill("revision", revision);
  }

  // ---- The plan -------------------------------------------------------------------------

  /** The plan shown, as the service returned it (and as the adapt route patched it). */
  let shownPlan = null;
  const sources = new Map();

  function remember(key, label, response) {
    sources.set(key, { label, response });
    const list = [...sources.entries()].map(([name, { label: text, response: r }]) => {
      const link = download(el("a", {}), `${name}.json`, r.text);
      link.textContent = `${name}.json`;
      return el("li", {}, link, ` — ${text}, from `, el("code", { text: `${r.request.method} ${r.request.path}` }),
        el("details", {}, el("summary", { text: "curl" }), el("pre", { text: RegimenAPI.curl(r.request) })));
    });
    fill("json-links", list, el("li", {}, el("a", { href: "/openapi.json", text: "openapi.json" }), " — every route and its schema"));
  }

  /** The chart at the width it has (the plan section must be visible to measure it). */
  function drawChart(plan) {
    const width = document.getElementById("volume-chart").clientWidth || 760;
    fill("volume-chart", Render.volumeChart(plan, Math.min(760, width)));
  }

  function renderPlan(plan, advice) {
    fill("plan-summary",
      Render.fact("Split", plan.training && plan.training.split ? plan.training.split.name : "—"),
      Render.fact("Training days", String(plan.training && plan.training.split ? plan.training.split.training_days : (plan.workouts || []).length)),
      Render.fact("Confidence", String(plan.confidence ?? "—")),
      plan.deload ? Render.fact("This week", "Deload") : null);
    // The week's notes (swaps for injuries, cuts, assumptions) sit behind one disclosure: each
    // swap is also written under its exercise in the table.
    const notes = [...((plan.training && plan.training.assumptions) || []), ...((plan.training && plan.training.notes) || [])];
    fill("plan-notes", notes.length
      ? el("details", {}, el("summary", { text: `Why the week looks like this (${notes.length} note${notes.length === 1 ? "" : "s"})` }),
        el("ul", { class: "cautions" }, notes.map((n) => el("li", { text: n }))))
      : null);
    fill("week", Render.week(plan));
    drawChart(plan);
    fill("nutrition", Render.nutrition(plan));
    fill("meals", Render.meals(plan));
    if (advice) fill("supplements", Render.supplements(advice));
    // The heading goes with its list: a plan without tips shows neither (no empty "Tips").
    const tips = plan.tips || [];
    fill("tips", tips.map((t) => el("li", { text: t })));
    document.getElementById("tips").hidden = tips.length === 0;
    document.getElementById("tips-title").hidden = tips.length === 0;
  }

  async function makePlan(event) {
    event.preventDefault();
    const current = profile();
    const status = document.getElementById("plan-status");
    const problems = document.getElementById("profile-problems");
    const button = document.getElementById("make-plan");
    button.disabled = true;
    status.textContent = "Planning…";
    try {
      const [plan, advice] = await Promise.all([
        RegimenAPI.post("/v1/plans", current),
        RegimenAPI.post("/v1/supplements", current),
      ]);
      showProblems(problems, profileForm, []);
      shownPlan = plan.json;
      sources.clear();
      remember("profile-plan", "the plan", plan);
      remember("supplements", "the supplement shortlist", advice);
      document.getElementById("plan").hidden = false;
      document.getElementById("checkin").hidden = false;
      renderPlan(plan.json, advice.json);
      fill("change-log", el("li", { class: "empty", text: "No check-in yet." }));
      status.textContent = "Plan ready.";
      document.getElementById("plan-title").focus();
    } catch (error) {
      status.textContent = "";
      if (error instanceof RegimenAPI.ServiceProblems) {
        showProblems(problems, profileForm, error.problems);
        problems.focus?.();
      } else {
        status.textContent = "The service cannot be reached.";
      }
    } finally {
      button.disabled = false;
      showRevision();
    }
  }

  // ---- Check-in -------------------------------------------------------------------------

  function checkin() {
    const data = new FormData(checkinForm);
    const readiness = { soreness: {} };
    const request = { current_plan: shownPlan, readiness };
    for (const [name, raw] of data.entries()) {
      const value = String(raw).trim();
      if (value === "") continue;
      if (name.startsWith("soreness.")) readiness.soreness[name.slice(9)] = Number(value);
      else if (name === "sleep_h" || name === "stress" || name === "motivation") readiness[name] = Number(value);
      else if (name === "last_week_adherence_pct") request[name] = Number(value);
      else request[name] = value;
    }
    return request;
  }

  async function adapt(event) {
    event.preventDefault();
    if (!shownPlan) return;
    const status = document.getElementById("checkin-status");
    const problems = document.getElementById("checkin-problems");
    const button = document.getElementById("adapt-plan");
    button.disabled = true;
    status.textContent = "Adapting…";
    try {
      const result = await RegimenAPI.post("/v1/adapt", checkin());
      showProblems(problems, checkinForm, []);
      const log = result.json.change_log || [];
      fill("change-log", log.length
        ? log.map((line) => el("li", { text: typeof line === "string" ? line : JSON.stringify(line) }))
        : el("li", { class: "empty", text: "Nothing to change: the plan stays as it is." }));
      shownPlan = result.json.patched_plan;
      remember("adapted-plan", "the adapted plan and its change log", result);
      renderPlan(shownPlan, null);
      status.textContent = log.length ? `Plan adapted: ${log.length} change${log.length === 1 ? "" : "s"}.` : "No change.";
    } catch (error) {
      status.textContent = "";
      if (error instanceof RegimenAPI.ServiceProblems) showProblems(problems, checkinForm, error.problems);
      else status.textContent = "The service cannot be reached.";
    } finally {
      button.disabled = false;
      showRevision();
    }
  }

  // ---- Wiring ---------------------------------------------------------------------------

  for (const select of document.querySelectorAll("select.sore")) {
    select.append(el("option", { value: "", text: "Not sore" }));
    for (let level = 1; level <= 5; level++) select.append(el("option", { value: String(level), text: String(level) }));
  }
  const debounced = debounce(refreshIndexes, 250);
  profileForm.addEventListener("input", debounced);
  profileForm.addEventListener("change", debounced);
  profileForm.addEventListener("submit", makePlan);
  window.addEventListener("resize", debounce(() => { if (shownPlan) drawChart(shownPlan); }, 200));
  checkinForm.addEventListener("submit", adapt);
  RegimenAPI.get("/v1/rules").then((rules) => fill("revision", rules.revision)).catch(() => fill("revision", "unavailable"));
  refreshIndexes();
})();
