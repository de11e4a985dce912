// The rules playground: edit one served rule file, see `regimen check`'s diagnostics at their
// line and column as you type, and a client's plan (or the whole panel's impact) under the
// edited rules beside the served one. The edit lives only in this page: the service checks and
// plans with it in memory (POST /v1/playground/*), and Download saves it as a file.
"use strict";

(() => {
  const { el, fill, debounce } = DOM;
  const byId = (id) => document.getElementById(id);
  const WHOLE_PANEL = "*";
  const state = { path: null, served: "", sequence: 0, started: false, diagnostics: [] };

  Views.onShow("playground", () => {
    if (state.started) return;
    state.started = true;
    start().catch((error) => fill("pg-check-status", `The playground could not start: ${error.message}`));
  });

  async function start() {
    const area = byId("pg-text");
    const [info, panel] = await Promise.all([Views.rules, RegimenAPI.get("/v1/playground/panel").catch(() => ({ clients: [] }))]);
    fillFiles(info.files.map((file) => file.path).filter((path) => /^(rules|catalogs)\/.+\.ya?ml$/.test(path)));
    fillClients(panel.clients || []);
    area.addEventListener("input", () => {
      drawGutter();
      markEdited();
      checkSoon();
    });
    // The gutter and the marks follow the text's scroll position, which also moves without a
    // scroll event when the editor is resized (a window resize, a rotated phone).
    area.addEventListener("scroll", syncScroll);
    window.addEventListener("resize", syncScroll);
    new ResizeObserver(syncScroll).observe(area);
    for (const type of ["keyup", "click", "select", "focus"]) area.addEventListener(type, showCaret);
    byId("pg-file").addEventListener("change", () => load(byId("pg-file").value));
    byId("pg-client").addEventListener("change", () => run());
    byId("pg-reset").addEventListener("click", () => {
      area.value = state.served;
      drawGutter();
      markEdited();
      run();
    });
    byId("pg-download").addEventListener("click", download);
    await load(byId("pg-file").value);
  }

  /** The served rule files, grouped by folder; a file that shapes plans is picked first. */
  function fillFiles(paths) {
    const folders = new Map();
    for (const path of paths) {
      const folder = path.slice(0, path.lastIndexOf("/"));
      folders.set(folder, [...(folders.get(folder) || []), path]);
    }
    const select = byId("pg-file");
    select.replaceChildren(...[...folders].map(([folder, files]) =>
      el("optgroup", { label: `${folder}/` }, files.map((path) => el("option", { value: path, text: path.slice(folder.length + 1) })))));
    const preferred = ["rules/training-volume.yaml", "rules/nutrition.yaml"].find((path) => paths.includes(path));
    if (preferred) select.value = preferred;
  }

  function fillClients(clients) {
    const select = byId("pg-client");
    select.replaceChildren(
      ...clients.map((name) => el("option", { value: name, text: name.replace(/\.(ya?ml|json)$/, "") })),
      el("option", { value: WHOLE_PANEL, text: `Whole panel (${clients.length} clients)`, disabled: clients.length === 0 }),
    );
  }

  /** Shows the served text of `path`, then checks and plans with it. */
  async function load(path) {
    const area = byId("pg-text");
    area.disabled = true;
    fill("pg-check-status", `Loading ${path}…`);
    try {
      const response = await RegimenAPI.get(`/v1/playground/file?path=${encodeURIComponent(path)}`);
      state.path = response.path;
      state.served = response.text;
      area.value = response.text;
      area.scrollTop = 0;
      area.scrollLeft = 0;
      area.setSelectionRange(0, 0);
    } catch (error) {
      fill("pg-check-status", `${path} could not be read: ${error.message}`);
      return;
    } finally {
      area.disabled = false;
    }
    drawGutter();
    markEdited();
    showCaret();
    await run();
  }

  const checkSoon = debounce(() => run(), 400);

  /** Checks the text, then plans with it when it loads. Answers to older text are dropped. */
  async function run() {
    const sequence = ++state.sequence;
    const current = () => sequence === state.sequence;
    const body = { path: state.path, text: byId("pg-text").value };
    fill("pg-check-status", "Checking…");
    let check;
    try {
      check = (await RegimenAPI.post("/v1/playground/check", body)).json;
    } catch (error) {
      if (current()) fill("pg-check-status", `The check failed: ${problemsText(error)}`);
      return;
    }
    if (!current()) return;
    showDiagnostics(check);
    if (!check.ok) {
      fill("pg-plan-status", "The edited rules do not load, so there is no plan: fix the errors above.");
      fill("pg-changes");
      fill("pg-compare");
      return;
    }
    const client = byId("pg-client").value;
    if (!client) {
      fill("pg-plan-status", "The service has no panel of clients to plan (regimen serve --panel DIR).");
      return;
    }
    const whole = client === WHOLE_PANEL;
    fill("pg-plan-status", whole ? "Planning every client of the panel under both rule sets…" : `Planning ${client}…`);
    try {
      const answer = whole
        ? (await RegimenAPI.post("/v1/playground/impact", body)).json
        : (await RegimenAPI.post("/v1/playground/plan", { ...body, client })).json;
      if (!current()) return;
      if (whole) showImpact(answer);
      else showPlans(answer);
    } catch (error) {
      if (!current()) return;
      fill("pg-plan-status", `No plan: ${problemsText(error)}`);
      fill("pg-changes");
      fill("pg-compare");
    }
  }

  function problemsText(error) {
    if (error instanceof RegimenAPI.ServiceProblems && error.problems.length > 0) {
      return error.problems.map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message)).join("; ");
    }
    return error.message || "no answer from the service";
  }

  // MARK: - Diagnostics

  function showDiagnostics(check) {
    state.diagnostics = check.diagnostics;
    const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    fill("pg-check-status", check.diagnostics.length === 0
      ? "No problems: regimen check accepts the edited rules."
      : `${count(check.errors, "error")} and ${count(check.warnings, "warning")}.`);
    fill("pg-diagnostics", check.diagnostics.map((diagnostic) => {
      const here = diagnostic.file === state.path && diagnostic.line !== null;
      const where = !diagnostic.location ? null
        : here ? el("button", { type: "button", class: "location", "data-line": diagnostic.line, "data-column": diagnostic.column,
          "aria-label": `Go to line ${diagnostic.line}, column ${diagnostic.column}`, text: `${diagnostic.line}:${diagnostic.column}` })
          : el("span", { class: "location", text: diagnostic.location });
      return el("li", { class: diagnostic.severity },
        where, " ", el("span", { class: "severity", text: `${diagnostic.severity}:` }), " ", diagnostic.message,
        diagnostic.notes.length ? el("ul", { class: "notes" }, diagnostic.notes.map((note) => el("li", { text: note }))) : null);
    }));
    for (const button of byId("pg-diagnostics").querySelectorAll("button.location")) {
      button.addEventListener("click", () => goTo(Number(button.dataset.line), Number(button.dataset.column)));
    }
    drawGutter();
  }

  /** Puts the caret at `line`:`column` (1-based) and scrolls the editor to it. */
  function goTo(line, column) {
    const area = byId("pg-text");
    const lines = area.value.split("\n");
    const row = Math.min(Math.max(line, 1), lines.length);
    let offset = 0;
    for (let index = 0; index < row - 1; index += 1) offset += lines[index].length + 1;
    offset += Math.min(Math.max(column - 1, 0), lines[row - 1].length);
    area.focus();
    area.setSelectionRange(offset, offset);
    const lineHeight = metrics().line;
    area.scrollTop = Math.max(0, (row - 3) * lineHeight);
    const left = (column - 1) * metrics().char;
    area.scrollLeft = left > area.clientWidth - 40 ? left - area.clientWidth / 2 : 0;
    syncScroll();
    showCaret();
  }

  function showCaret() {
    const area = byId("pg-text");
    const before = area.value.slice(0, area.selectionStart);
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    fill("pg-caret", `line ${line}, column ${column}`);
  }

  // MARK: - Gutter and marks

  let measured = null;

  /** The editor's line height and character width in px, measured once from its font. */
  function metrics() {
    if (measured) return measured;
    const area = byId("pg-text");
    const probe = el("span", { class: "probe", text: "0".repeat(20) });
    byId("pg-editor").append(probe);
    const style = window.getComputedStyle(area);
    measured = {
      char: probe.getBoundingClientRect().width / 20 || 8,
      line: parseFloat(style.lineHeight) || 20,
      top: parseFloat(style.paddingTop) || 0,
      left: parseFloat(style.paddingLeft) || 0,
    };
    probe.remove();
    return measured;
  }

  /** Line numbers beside the text, a mark on each line with a diagnostic, and a mark under the
   *  column each one names. */
  function drawGutter() {
    const area = byId("pg-text");
    const lines = area.value.split("\n");
    const severities = new Map();
    const here = state.diagnostics.filter((d) => d.file === state.path && d.line !== null);
    for (const diagnostic of here) {
      if (severities.get(diagnostic.line) !== "error") severities.set(diagnostic.line, diagnostic.severity);
    }
    fill("pg-gutter", lines.map((_, index) => {
      const severity = severities.get(index + 1);
      return el("div", { class: severity ? `line ${severity}` : "line", text: String(index + 1) });
    }));
    const size = metrics();
    fill("pg-marks", here.map((diagnostic) => {
      const text = lines[diagnostic.line - 1] || "";
      const start = Math.max(diagnostic.column - 1, 0);
      const token = text.slice(start).match(/^\S*/)[0].length;
      const mark = el("span", { class: `mark ${diagnostic.severity}` });
      mark.style.top = `${size.top + (diagnostic.line - 1) * size.line}px`;
      mark.style.left = `${size.left + start * size.char}px`;
      mark.style.width = `${Math.max(token, 1) * size.char}px`;
      mark.style.height = `${size.line}px`;
      return mark;
    }));
    syncScroll();
  }

  function syncScroll() {
    const area = byId("pg-text");
    byId("pg-gutter").scrollTop = area.scrollTop;
    byId("pg-marks").style.transform = `translate(${-area.scrollLeft}px, ${-area.scrollTop}px)`;
  }

  function markEdited() {
    const edited = byId("pg-text").value !== state.served;
    fill("pg-file-name", state.path || "the file", edited ? " (edited)" : "");
    byId("pg-reset").disabled = !edited;
  }

  // MARK: - Plans

  /** The facts a coach compares, read from a plan: [label, value] in a fixed order. */
  function facts(plan) {
    if (!plan) return new Map();
    const rows = new Map();
    const split = plan.training && plan.training.split;
    rows.set("Split", split ? `${split.name} (${split.id})` : "—");
    rows.set("Training days", split ? String(split.training_days) : "—");
    rows.set("Calories (kcal)", String(plan.kcal));
    rows.set("Protein (g)", String(plan.macros.protein_g));
    rows.set("Carbs (g)", String(plan.macros.carb_g));
    rows.set("Fat (g)", String(plan.macros.fat_g));
    for (const muscle of (plan.training && plan.training.weekly_sets) || []) {
      rows.set(`${muscle.muscle} weekly sets`, `${muscle.planned} (band ${muscle.band})`);
    }
    rows.set("Confidence", plan.confidence || "—");
    return rows;
  }

  function sideError(side) {
    return side.error ? side.error.map((problem) => problem.message).join("; ") : null;
  }

  function showPlans(answer) {
    fill("pg-plan-status", answer.changed
      ? `${answer.changes.length} change${answer.changes.length === 1 ? "" : "s"} for ${answer.client}.`
      : `No change: the edited rules give ${answer.client} the same plan.`);
    fill("pg-changes", answer.changed
      ? [el("h4", { id: "pg-changes-title", text: "What changed (as regimen impact words it)" }),
        el("ul", { class: "changes", "aria-labelledby": "pg-changes-title" }, answer.changes.map((change) => el("li", { text: change.summary })))]
      : []);
    const served = facts(answer.served.plan), edited = facts(answer.edited.plan);
    const labels = [...new Set([...served.keys(), ...edited.keys()])];
    // Then one row per workout block, aligned by the service as regimen impact aligns them
    // (answer.blocks), so a changed exercise is its own block's row and an added exercise does
    // not mark every later block of its day.
    const rows = [...labels.map((label) => [label, served.get(label) || "—", edited.get(label) || "—"]),
      ...(answer.blocks || []).map((block) => [block.place, block.served || "—", block.edited || "—"])];
    // The rows that differ come first (in the plan's order), then the rest.
    const same = (row) => row[1] === row[2];
    const errors = [sideError(answer.served), sideError(answer.edited)];
    const body = [...rows.filter((row) => !same(row)), ...rows.filter(same)].map(([label, before, after]) => {
      const differs = before !== after;
      return el("tr", { class: differs ? "differs" : null },
        el("th", { scope: "row", text: label }),
        el("td", { text: before }),
        el("td", {}, after, differs ? el("span", { class: "badge", text: "changed" }) : null));
    });
    fill("pg-compare", el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "pg-compare-caption" },
      el("table", { class: "compare" },
        el("caption", { id: "pg-compare-caption", text: `The plan of ${answer.client}: served rules beside edited rules, changed rows first` }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Measure" }), el("th", { scope: "col", text: "Served" }), el("th", { scope: "col", text: "Edited" }))),
        el("tbody", {},
          errors.some(Boolean) ? el("tr", {}, el("th", { scope: "row", text: "Error" }), el("td", { text: errors[0] || "" }), el("td", { text: errors[1] || "" })) : null,
          body))));
  }

  function showImpact(impact) {
    fill("pg-plan-status", impact.changed === 0
      ? `No change for any of the ${impact.clients} clients.`
      : `${impact.changed} of ${impact.clients} clients change; no change for ${impact.unchanged}.`);
    fill("pg-changes", impact.groups.length
      ? [el("h4", { id: "pg-changes-title", text: "Changes shared across clients" }),
        el("ul", { class: "changes", "aria-labelledby": "pg-changes-title" }, impact.groups.map((group) => el("li", { text: group.summary })))]
      : []);
    fill("pg-compare", impact.per_client.length
      ? [el("h4", { text: "Per client" }), impact.per_client.map((client) => el("details", { class: "client" },
        el("summary", { text: `${client.client} (${client.changes.length} change${client.changes.length === 1 ? "" : "s"})` }),
        el("ul", {}, client.changes.map((change) => el("li", { text: change.summary })))))]
      : []);
  }

  // MARK: - Download

  function download() {
    const name = (state.path || "rules.yaml").split("/").pop();
    const url = URL.createObjectURL(new Blob([byId("pg-text").value], { type: "application/yaml" }));
    const link = el("a", { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
})();
