// Progressive navigation: same-origin links and forms fetch their page and morph the document
// into it, instead of loading it whole. Without this script every link and form works as it
// is: a link loads its page, a form posts and the server answers 303 to a page (Post/Redirect/Get).
//
// - Regions: the request names the versions of the regions the page holds (Tessera-Regions); a
//   region that did not change comes back empty (data-region-same), and the page keeps its own
//   element, with what the visitor typed into it and where the focus is.
// - Typed input elsewhere survives too: a field the visitor changed keeps its value when the new
//   page has the same field (same form, same name) with the same value from the server.
// - Scroll: kept when the answer is the page itself (a form that redirects back); another page is
//   pushed onto the history and starts at its top, or at its #fragment.
// - Back and forward: the entry's page is fetched again and morphed, at the scroll it was left at.
// - In flight, a form is aria-busy and its submit buttons disabled. An answer with an error (a
//   422 with the form's messages) is morphed in too, and the focus goes to the first field in error.
// - Elements with data-tessera-permanent and an id (a cart drawer, a playing video) are never replaced.
// - A page morphed into one the server said not to store leaves nothing in the back/forward cache.
// - After each morph, document gets a `tessera:load` event: page scripts start again on new elements.
(() => {
  if (!("fetch" in window) || !("DOMParser" in window) || !history.pushState) return;
  history.scrollRestoration = "manual";
  let inFlight = null;
  // The page the document shows, without its #fragment: moving between fragments is the browser's.
  let shown = null;
  // Whether the page shows an answer the server said not to store (one made for a signed-in
  // shopper): the browser may still keep this document in its back/forward cache, since the
  // document it first loaded could be kept.
  let shownNotStored = false;

  const sameOrigin = (url) => url.origin === location.origin;
  // A link to a file (a photo, /sitemap.xml, /robots.txt) is the browser's to open: fetched here
  // first, it would only be fetched twice, once to find it is no page.
  const isFile = (url) => /\.[a-z0-9]+$/i.test(url.pathname) && !/\.html?$/i.test(url.pathname);
  const withoutHash = (url) => { const copy = new URL(url); copy.hash = ""; return copy.href; };
  const scroll = () => [scrollX, scrollY];

  function remember() {
    history.replaceState({ ...(history.state || {}), tessera: true, scroll: scroll() }, "");
  }

  // Links: a plain click on a same-origin link to another page.
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest("a[href]");
    if (!link || link.target || link.hasAttribute("download") || link.closest("[data-tessera-reload]")) return;
    const url = new URL(link.href, location.href);
    if (!sameOrigin(url) || isFile(url) || (url.hash && withoutHash(url) === withoutHash(location.href))) return;
    event.preventDefault();
    visit(url, { method: "GET" });
  });

  // Forms: GET forms (a search, a filter) and POST forms alike.
  document.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return;
    const form = event.target;
    const submitter = event.submitter;
    if (form.target || form.closest("[data-tessera-reload]")) return;
    const action = new URL(submitter?.getAttribute("formaction") || form.getAttribute("action") || location.href, location.href);
    const method = (submitter?.getAttribute("formmethod") || form.method || "get").toUpperCase();
    if (!sameOrigin(action) || (method !== "GET" && method !== "POST")) return;
    event.preventDefault();
    const data = new FormData(form, submitter);
    const multipart = (form.enctype || "").startsWith("multipart/");
    if (method === "GET") {
      action.search = new URLSearchParams(data).toString();
      visit(action, { method, form });
    } else {
      visit(action, { method, form, body: multipart ? data : new URLSearchParams(data) });
    }
  });

  addEventListener("popstate", (event) => {
    if (withoutHash(location.href) === shown) return;
    if (!event.state?.tessera) return location.reload();
    visit(new URL(location.href), { method: "GET", restoring: event.state.scroll || [0, 0] });
  });

  async function visit(url, { method, body, form, restoring }) {
    inFlight?.abort();
    const controller = (inFlight = new AbortController());
    const buttons = form ? [...form.querySelectorAll("button:not([disabled]), input[type=submit]:not([disabled])")] : [];
    form?.setAttribute("aria-busy", "true");
    buttons.forEach((button) => { button.disabled = true; });
    let reply;
    try {
      reply = await fetch(url, {
        method, body, signal: controller.signal, credentials: "same-origin",
        headers: { Accept: "text/html", "Tessera-Regions": versionsHeld() },
      });
    } catch (error) {
      if (error.name === "AbortError") return;
      // The network failed: let the browser try, and say what went wrong, as it does.
      return method === "GET" ? location.assign(url) : HTMLFormElement.prototype.submit.call(form);
    } finally {
      form?.removeAttribute("aria-busy");
      buttons.forEach((button) => { button.disabled = false; });
      if (inFlight === controller) inFlight = null;
    }
    // A form answered in place (a 422 with its messages) stays at the page it was sent from, as
    // a reload there would send it again.
    const landed = method === "POST" && !reply.redirected ? new URL(location.href) : new URL(reply.url);
    if (!(reply.headers.get("Content-Type") || "").startsWith("text/html")) return location.assign(landed);
    const html = await reply.text();
    if (controller.signal.aborted) return;
    const samePage = withoutHash(landed) === withoutHash(location.href);
    const position = restoring || (samePage ? scroll() : null);
    if (!restoring) {
      remember();
      const target = new URL(landed);
      if (!target.hash) target.hash = url.hash;
      if (!samePage) history.pushState({ tessera: true, scroll: [0, 0] }, "", target.href);
    }
    shownNotStored = /no-store/.test(reply.headers.get("Cache-Control") || "");
    morph(new DOMParser().parseFromString(html, "text/html"));
    if (position) scrollTo(position[0], position[1]);
    else if (url.hash) document.getElementById(decodeURIComponent(url.hash.slice(1)))?.scrollIntoView();
    else scrollTo(0, 0);
    if (!reply.ok) document.querySelector("[aria-invalid=true]")?.focus();
    shown = withoutHash(location.href);
    remember();
  }

  // The versions of the regions this page holds: the server leaves out those it would send the same.
  function versionsHeld() {
    return [...document.querySelectorAll("[data-region-version]")].map((region) => region.dataset.regionVersion).join(" ");
  }

  // A field's identity across pages: its form's action, its name, and a choice's value.
  const isChoice = (field) => field.type === "checkbox" || field.type === "radio";
  const fieldKey = (field) => [field.form?.getAttribute("action") ?? "", field.name, isChoice(field) ? field.value : ""].join("\n");
  const isTyped = (field) => isChoice(field) ? field.checked !== field.defaultChecked
    : field.tagName === "SELECT" ? [...field.options].some((option) => option.selected !== option.defaultSelected)
    : field.value !== field.defaultValue;
  const serverValue = (field) => isChoice(field) ? field.defaultChecked
    : field.tagName === "SELECT" ? [...field.options].filter((option) => option.defaultSelected).map((option) => option.value).join("\n")
    : field.defaultValue;

  function morph(next) {
    const focused = document.activeElement;
    // What the visitor typed outside the regions kept, by field.
    const typed = new Map();
    for (const field of document.querySelectorAll("input, textarea, select")) {
      if (!field.name || field.type === "hidden" || field.type === "file" || field.type === "password" || !isTyped(field)) continue;
      typed.set(fieldKey(field), field);
    }
    const body = document.importNode(next.body, true);
    // Regions the server left out: this page's own element goes in their place, as it is.
    const kept = new Set();
    for (const placeholder of body.querySelectorAll("[data-region-same]")) {
      const own = document.querySelector(`[data-region-version="${CSS.escape(placeholder.dataset.regionVersion)}"]`);
      if (own && !kept.has(own)) { kept.add(own); placeholder.replaceWith(own); }
    }
    for (const element of body.querySelectorAll("[data-tessera-permanent][id]")) {
      const own = document.getElementById(element.id);
      if (own?.hasAttribute("data-tessera-permanent")) { kept.add(own); element.replaceWith(own); }
    }
    for (const field of body.querySelectorAll("input, textarea, select")) {
      if (!field.name || [...kept].some((element) => element.contains(field))) continue;
      const old = typed.get(fieldKey(field));
      if (!old || serverValue(old) !== serverValue(field)) continue;
      if (isChoice(old)) field.checked = old.checked;
      else if (field.tagName === "SELECT") [...field.options].forEach((option, index) => { option.selected = old.options[index]?.selected ?? option.selected; });
      else field.value = old.value;
    }
    mergeHead(next);
    document.documentElement.lang = next.documentElement.lang;
    document.body.replaceWith(body);
    if (focused && document.contains(focused) && focused !== document.body) focused.focus({ preventScroll: true });
    document.dispatchEvent(new CustomEvent("tessera:load"));
  }

  // The title and the page's own links and metadata follow the new page; stylesheets and scripts
  // it lacks are added (a script runs once, as it would on a page load).
  function mergeHead(next) {
    document.title = next.title;
    const perPage = "meta[name=description], link[rel=canonical], link[rel=alternate]";
    document.head.querySelectorAll(perPage).forEach((element) => element.remove());
    const anchor = document.head.querySelector("link[rel=stylesheet], script");
    next.head.querySelectorAll(perPage).forEach((element) => document.head.insertBefore(document.importNode(element, true), anchor));
    const absolute = (element, name) => new URL(element.getAttribute(name), location.href).href;
    const has = (selector, name, url) => [...document.querySelectorAll(selector)].some((own) => absolute(own, name) === url);
    for (const sheet of next.head.querySelectorAll("link[rel=stylesheet][href]")) {
      if (!has("link[rel=stylesheet][href]", "href", absolute(sheet, "href"))) document.head.append(document.importNode(sheet, true));
    }
    for (const script of next.head.querySelectorAll("script[src]")) {
      const url = absolute(script, "src");
      if (has("script[src]", "src", url)) continue;
      const added = document.createElement("script");
      added.src = url;
      document.head.append(added);
    }
  }

  // Leaving a page that shows what must not be stored, its content goes, so the back/forward
  // cache keeps nothing private (Back after signing out on a shared computer); shown again, the
  // page is asked for anew.
  addEventListener("pagehide", (event) => {
    if (!event.persisted || !shownNotStored) return;
    remember();
    document.body.replaceChildren();
  });
  addEventListener("pageshow", (event) => {
    if (!event.persisted || !shownNotStored) return;
    visit(new URL(location.href), { method: "GET", restoring: history.state?.scroll || [0, 0] });
  });

  shown = withoutHash(location.href);
  remember();
})();
