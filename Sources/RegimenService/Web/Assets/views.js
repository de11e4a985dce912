// The page's tools (the planner, the rules playground, …): one shown at a time, chosen by the
// address's #fragment so each has a link, the Back button works and a reload keeps the tool.
//
// A tool is a `main > .view` element with an id, linked from the "Tools" nav by an
// `a[data-view-link]` to `#id`. `data-requires="flag"` on a view and on its nav item keeps both
// hidden unless GET /v1/rules answers `flag: true` (the playground exists only while the
// service offers it). `data-view-of="id"` shows an element only while that view is shown.
// Other scripts read the rules info from `Views.rules` and learn that their view is shown from
// `Views.onShow(id, callback)`.
"use strict";

const Views = (() => {
  const available = new Set();
  const listeners = new Map();
  let current = null;

  /** The rules info (GET /v1/rules), fetched once for every tool. */
  const rules = RegimenAPI.get("/v1/rules");

  function views() {
    return [...document.querySelectorAll("main > .view")];
  }

  function usable(view) {
    return !view.dataset.requires || available.has(view.dataset.requires);
  }

  /** The view the fragment names (the view itself or an element inside it), else the first. */
  function viewFor(hash) {
    const target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    const view = target ? target.closest("main > .view") : null;
    return { view: view && usable(view) ? view : views()[0], target: view && usable(view) ? target : null };
  }

  function show(hash, moveFocus) {
    const { view, target } = viewFor(hash);
    if (!view) return;
    const changed = view !== current;
    current = view;
    for (const other of views()) other.hidden = other !== view;
    for (const link of document.querySelectorAll("a[data-view-link]")) {
      if (link.getAttribute("href") === `#${view.id}`) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    for (const part of document.querySelectorAll("[data-view-of]")) part.hidden = part.dataset.viewOf !== view.id;
    if (target && target !== view) target.scrollIntoView();
    if (changed) {
      for (const callback of listeners.get(view.id) || []) callback();
      if (moveFocus) {
        // A screen reader hears the tool's title after its link is followed.
        const heading = view.querySelector("h2[tabindex]");
        if (heading && target === view) heading.focus();
      }
    }
  }

  /** Runs `callback` each time the view `id` becomes the one shown (now, if it is). */
  function onShow(id, callback) {
    listeners.set(id, [...(listeners.get(id) || []), callback]);
    if (current && current.id === id) callback();
  }

  window.addEventListener("hashchange", () => show(window.location.hash, true));
  document.addEventListener("DOMContentLoaded", () => {
    show(window.location.hash, false);
    rules.then((info) => {
      for (const element of document.querySelectorAll("[data-requires]")) {
        const flag = element.dataset.requires;
        if (info[flag] === true) available.add(flag);
        if (!element.classList.contains("view")) element.hidden = info[flag] !== true;
      }
      show(window.location.hash, false);
    }).catch(() => {});
  });

  return { rules, onShow };
})();
