// Draws the plan from the service's JSON: the week, the weekly sets per muscle against the band
// (SVG), calories and macros, meal options and the supplement shortlist. Nothing is computed
// here that the engine decides; the page only lays its answers out.
"use strict";

const Render = (() => {
  const { el, svg } = DOM;

  /** `back_squat` → `back squat`; ids are shown when the JSON carries no name. */
  const words = (id) => String(id ?? "").replace(/_/g, " ");
  const number = (x, digits = 0) => (typeof x === "number" ? x.toLocaleString("en", { maximumFractionDigits: digits }) : "—");

  function fact(label, value, detail) {
    return el("div", { class: "fact" }, label, el("b", { text: value }), detail ? el("span", { class: "hint", text: detail }) : null);
  }

  /**
   * `3 × 8-12 @ RIR 1-2` as the seed writes a prescription, in two unbreakable parts (`3 × 8–12`
   * and `@ RIR 1–2`): a narrow cell may wrap between them, never inside a range ("2 × 6–" / "10 @").
   */
  function prescription(block) {
    const dose = el("span", { class: "nobr", text: `${block.sets} × ${block.reps}` });
    if (block.rir === null || block.rir === undefined) return [dose];
    return [dose, " ", el("span", { class: "nobr", text: `@ RIR ${block.rir}` })];
  }

  function blockRows(blocks) {
    return blocks.map((block) =>
      el("tr", {},
        el("th", { scope: "row" }, block.name || words(block.exerciseId),
          (block.notes || []).map((note) => el("span", { class: "note", text: note }))),
        el("td", { class: "num" }, prescription(block)),
        el("td", { text: words(block.muscle) }),
      ));
  }

  function blockTable(caption, blocks) {
    // The same column widths in every day's table (table-layout: fixed), so columns line up
    // from one day to the next whatever the exercise names.
    const table = el("table", { class: "blocks" },
      el("caption", {}, caption),
      el("colgroup", {}, el("col", { class: "exercise" }), el("col", { class: "dose" }), el("col", { class: "muscle" })),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: "Exercise" }),
        el("th", { scope: "col", class: "num", text: "Sets × reps @ RIR" }),
        el("th", { scope: "col", text: "Muscle" }))),
      el("tbody", {}, blockRows(blocks)));
    // A scrolling region must be reachable by keyboard and named for a screen reader.
    return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption.textContent || String(caption) }, table);
  }

  /** One table per day, each followed by its busy-day (compact) variant. */
  function week(plan) {
    const workouts = plan.workouts || [];
    if (workouts.length === 0) return el("p", { text: "No training days in this plan." });
    return workouts.map((workout) => {
      const title = `Day ${workout.day}: ${workout.focus}${workout.recovery ? " (active recovery)" : ""}`;
      const caption = el("span", {}, title, " ", el("span", { class: "minutes", text: `about ${workout.estimated_minutes} min` }));
      const parts = [blockTable(caption, workout.blocks || [])];
      if (workout.compact) {
        const compact = workout.compact;
        const groups = (compact.groups || []).map((group) => {
          const label = `${group.label}: ${group.kind}, ${group.rounds} round${group.rounds === 1 ? "" : "s"}`;
          return blockTable(el("span", {}, label), group.blocks || []);
        });
        const omitted = compact.omitted_muscles && compact.omitted_muscles.length
          ? el("p", { class: "hint", text: `Left out on a busy day: ${compact.omitted_muscles.map(words).join(", ")}.` }) : null;
        parts.push(el("details", { class: "busy" },
          el("summary", {}, `Busy-day variant of day ${workout.day} (about ${compact.estimated_minutes} min)`),
          groups, omitted));
      }
      return parts;
    });
  }

  /** "10-20" → [10, 20]; a single number is a band of one. */
  function band(text) {
    const match = String(text ?? "").match(/^\s*(\d+(?:\.\d+)?)\s*(?:[-–]\s*(\d+(?:\.\d+)?))?\s*$/);
    if (!match) return null;
    const low = Number(match[1]);
    return [low, match[2] === undefined ? low : Number(match[2])];
  }

  /**
   * Horizontal bars of planned weekly sets over each muscle's shaded band, drawn `width` pixels
   * wide (one SVG unit per CSS pixel, so the labels keep their size on a phone).
   */
  function volumeChart(plan, width = 760) {
    const rows = (plan.training && plan.training.weekly_sets) || [];
    if (rows.length === 0) return el("p", { text: "This plan reports no weekly sets." });
    const narrow = width < 500;
    const labelWidth = narrow ? 84 : 110, valueWidth = narrow ? 84 : 110, rowHeight = 26, top = 8;
    const barArea = Math.max(120, width - labelWidth - valueWidth);
    const top_of = (i) => top + i * rowHeight;
    const maximum = Math.max(1, ...rows.map((r) => Math.max(r.planned || 0, (band(r.band) || [0, 0])[1])));
    const scale = barArea / (Math.ceil(maximum / 5) * 5);
    const height = top + rows.length * rowHeight + 24;
    const summary = rows.map((r) => `${words(r.muscle)} ${number(r.planned, 1)} sets, band ${r.band}`).join("; ");
    const chart = svg("svg", { viewBox: `0 0 ${labelWidth + barArea + valueWidth} ${height}`, role: "img", "aria-labelledby": "volume-svg-title volume-svg-desc" },
      svg("title", { id: "volume-svg-title", text: "Weekly sets per muscle against the band" }),
      svg("desc", { id: "volume-svg-desc", text: summary }));
    rows.forEach((row, i) => {
      const y = top_of(i);
      const range = band(row.band);
      const short = range && row.planned < range[0];
      chart.append(svg("text", { x: labelWidth - 8, y: y + 16, "text-anchor": "end", text: words(row.muscle) }));
      if (range) {
        chart.append(svg("rect", { class: "band", x: labelWidth + range[0] * scale, y: y + 1, width: Math.max(2, (range[1] - range[0]) * scale), height: rowHeight - 2 }));
      }
      chart.append(svg("rect", { class: short ? "bar short" : "bar", x: labelWidth, y: y + 7, width: Math.max(1, (row.planned || 0) * scale), height: rowHeight - 14 }));
      chart.append(svg("text", { x: labelWidth + barArea + 6, y: y + 16, text: `${number(row.planned, 1)} / ${row.band}` }));
    });
    const axisY = top + rows.length * rowHeight + 4;
    chart.append(svg("line", { class: "axis", x1: labelWidth, x2: labelWidth + barArea, y1: axisY, y2: axisY }));
    for (let tick = 0; tick * scale <= barArea + 0.5; tick += 5) {
      chart.append(svg("text", { x: labelWidth + tick * scale, y: axisY + 14, "text-anchor": "middle", text: String(tick) }));
    }
    const legend = el("ul", { class: "legend", "aria-hidden": "true" },
      el("li", {}, el("span", { class: "swatch bar" }), "planned sets"),
      el("li", {}, el("span", { class: "swatch short" }), "below the band"),
      el("li", {}, el("span", { class: "swatch band" }), "weekly band"));
    const shortfalls = rows.filter((r) => r.shortfall && r.shortfall.length)
      .map((r) => el("li", { text: `${words(r.muscle)}: ${r.shortfall.join("; ")}` }));
    return [el("div", { class: "chart" }, chart), legend, shortfalls.length ? el("ul", { class: "cautions" }, shortfalls) : null];
  }

  function nutrition(plan) {
    const macros = plan.macros || {};
    const idx = plan.idx || {};
    return el("div", { class: "macros" },
      fact("Calories", `${number(plan.kcal)} kcal`, "per day"),
      fact("Protein", `${number(macros.protein_g)} g`),
      fact("Carbohydrate", `${number(macros.carb_g)} g`),
      fact("Fat", `${number(macros.fat_g)} g`),
      fact("BMR", `${number(idx.BMR)} kcal`, idx.method ? words(idx.method) : null),
      fact("TDEE", `${number(idx.TDEE)} kcal`));
  }

  const categories = [["protein", "Protein"], ["carb", "Carbohydrate"], ["veg", "Vegetables"], ["fat", "Fat"]];

  function meals(plan) {
    const list = (plan.ingredients && plan.ingredients.meals) || [];
    if (list.length === 0) return el("p", { text: "No meal options in this plan." });
    return el("div", { class: "meals" }, list.map((meal) => {
      const targets = meal.targets || {};
      const body = meal.unavailable
        ? el("p", { class: "cautions", text: meal.unavailable })
        : categories.map(([key, label]) => {
          const options = meal[`${key}_opts`] || [];
          if (options.length === 0) return null;
          return [el("h5", { text: `${label}, one of` }),
            el("ul", {}, options.map((o) => el("li", { text: `${o.name || words(o.ingredientId)}: ${number(o.grams)} g` })))];
        });
      return el("div", { class: "meal" },
        el("h4", { text: words(meal.slot) }),
        el("p", { class: "hint", text: `${number(targets.kcal)} kcal · P ${number(targets.p)} g · C ${number(targets.c)} g · F ${number(targets.f)} g` }),
        body);
    }));
  }

  /** Messages joined as sentences: each ends with its own stop, then a space (never ".;"). */
  function sentences(messages) {
    return messages.map((m) => String(m).trim()).filter(Boolean).map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(" ");
  }

  function supplements(advice) {
    const shortlist = advice.shortlist || [];
    const parts = shortlist.map((item) => {
      const cautions = [...(item.cautions || []), ...(item.personal_cautions || []).map((c) => c.message)];
      return el("div", { class: cautions.length ? "supplement caution" : "supplement" },
        el("h4", { text: `${item.name} (evidence ${item.evidence_tier})` }),
        el("p", { text: `${item.dose.amount}, ${item.dose.timing}` }),
        cautions.length ? el("ul", {}, cautions.map((c) => el("li", { text: `Caution: ${c}` }))) : null);
    });
    const leftOut = (advice.left_out || []).map((item) =>
      el("li", { text: `${item.name}: ${sentences((item.reasons || []).map((r) => r.message))}` }));
    return [
      parts.length ? parts : el("p", { text: "No supplement is shortlisted for this profile." }),
      leftOut.length ? [el("h4", { text: "Left out for this profile" }), el("ul", {}, leftOut)] : null,
    ];
  }

  return { week, volumeChart, nutrition, meals, supplements, fact, words, number };
})();
