// Calls to the service's JSON API, and the small DOM helpers every part of the page shares.
// Every response is kept with the request that produced it, so the page can offer the exact
// JSON (and a curl command) it was built from.
"use strict";

const RegimenAPI = (() => {
  /** A problem the service reported: {id, message, path}. */
  class ServiceProblems extends Error {
    constructor(status, problems) {
      super(problems.map((p) => p.message).join("; ") || `HTTP ${status}`);
      this.status = status;
      this.problems = problems;
    }
  }

  let latestRevision = null;

  /**
   * POSTs `body` as JSON to `path`; resolves to {json, text, request} or rejects with
   * ServiceProblems (the service's error body) or a TypeError (no connection).
   */
  async function post(path, body) {
    const text = JSON.stringify(body, null, 2);
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: text,
    });
    const revision = response.headers.get("Regimen-Revision");
    if (revision) latestRevision = revision;
    const answer = await response.text();
    let json = null;
    try {
      json = JSON.parse(answer);
    } catch (_) {
      json = null;
    }
    if (!response.ok) {
      const problems = json && Array.isArray(json.problems) ? json.problems : [{ id: "http", message: `The service answered ${response.status}.`, path: null }];
      throw new ServiceProblems(response.status, problems);
    }
    return { json, text: answer, request: { method: "POST", path, body: text } };
  }

  async function get(path) {
    const response = await fetch(path, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new ServiceProblems(response.status, []);
    return response.json();
  }

  /** The curl command that sends the same request to this service. */
  function curl(request) {
    const origin = window.location.origin;
    const quoted = request.body.replace(/'/g, "'\\''");
    return `curl -X ${request.method} '${origin}${request.path}' -H 'Content-Type: application/json' -d '${quoted}'`;
  }

  return { post, get, curl, ServiceProblems, revision: () => latestRevision };
})();

const DOM = (() => {
  /** An element with attributes and children (strings become text nodes, never HTML). */
  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    append(node, children);
    return node;
  }

  const svgNS = "http://www.w3.org/2000/svg";

  function svg(tag, attributes = {}, ...children) {
    const node = document.createElementNS(svgNS, tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === null || value === undefined) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, String(value));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  /** Replaces the children of the element with id `id`. */
  function fill(id, ...children) {
    const node = document.getElementById(id);
    node.replaceChildren();
    append(node, children);
    return node;
  }

  /** Runs `action` at most once per `wait` milliseconds of quiet. */
  function debounce(action, wait) {
    let timer = null;
    return (...args) => {
      clearTimeout(timer);
      timer = setTimeout(() => action(...args), wait);
    };
  }

  /** A link that downloads `text` as `name` (a blob: URL; the page's policy allows no inline data). */
  function download(link, name, text) {
    if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.dataset.url = url;
    link.href = url;
    link.download = name;
    link.hidden = false;
    return link;
  }

  /** Shows the service's problems in `container` and marks the fields they name. */
  function showProblems(container, form, problems) {
    for (const marked of form.querySelectorAll("[aria-invalid]")) marked.removeAttribute("aria-invalid");
    for (const old of form.querySelectorAll(".field-error")) old.remove();
    if (!problems || problems.length === 0) {
      container.hidden = true;
      container.replaceChildren();
      return;
    }
    container.replaceChildren(
      el("p", { text: problems.length === 1 ? "One answer needs a fix:" : `${problems.length} answers need a fix:` }),
      // A problem's message does not repeat its field: the list names it (a place such as
      // `<body>:1:1` is no field and is left out).
      el("ul", {}, problems.map((p) => el("li", { text: p.path && !p.path.startsWith("<") ? `${p.path}: ${p.message}` : p.message }))),
    );
    container.hidden = false;
    for (const problem of problems) {
      if (!problem.path) continue;
      const name = problem.path.replace(/\[\d+\]$/, "");
      const field = form.querySelector(`[data-field="${CSS.escape(name)}"]`);
      if (!field) continue;
      const control = field.querySelector("input, select");
      const id = `${name.replace(/\W/g, "_")}-error`;
      field.append(el("small", { class: "field-error", id, text: problem.message }));
      if (control) {
        control.setAttribute("aria-invalid", "true");
        const described = (control.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== id);
        control.setAttribute("aria-describedby", [...described, id].join(" "));
      }
    }
  }

  return { el, svg, fill, debounce, download, showProblems };
})();
