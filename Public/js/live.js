// Live regions: follows the page's one event stream (the URL in data-live-stream) and swaps
// each region it sends in place. Without this script the page is the same, only not live.
//
// Reconnects: after a drop the stream is opened again with the versions the page shows now,
// so the server sends whatever changed meanwhile. The wait's bound doubles from 1 s up to 30 s,
// and each wait is drawn at random between half the bound and the bound (jitter), so a restarted
// server is not hit by every page at once; it starts over after a stream that opened, and gives up after 10 failures in a row
// (a page left open overnight against a server that is gone), until the tab is shown again or
// the network comes back.
//
// After the navigation script morphs the page into another (tessera:load), the stream goes on
// when the new page follows the same regions, and follows the new page's otherwise.
(() => {
  if (!("EventSource" in window)) return;
  const firstDelay = 1000, maxDelay = 30000, maxFailures = 10;
  let streamURL = null, sources = [];
  let stream = null, timer = null, failures = 0;

  function follow() {
    const marker = document.querySelector("[data-live-stream]");
    const next = marker ? new URL(marker.dataset.liveStream, location.href) : null;
    if (next?.href === streamURL?.href) return;
    disconnect();
    streamURL = next;
    sources = next ? next.searchParams.getAll("src") : [];
    failures = 0;
    connect();
  }

  const regionAt = (source) => document.querySelector(`[data-region-src="${CSS.escape(source)}"]`);

  function currentURL() {
    const url = new URL(streamURL);
    url.searchParams.delete("v");
    for (const source of sources) url.searchParams.append("v", regionAt(source)?.dataset.regionVersion ?? "");
    return url;
  }

  // What the visitor typed into a region survives the swap when the new fragment has the same
  // field (a checkbox or radio button: the same name and value). Files cannot be carried over.
  const isChoice = (field) => field.type === "checkbox" || field.type === "radio";
  const fieldKey = (field) => isChoice(field) ? `[name="${CSS.escape(field.name)}"][value="${CSS.escape(field.value)}"]` : `[name="${CSS.escape(field.name)}"]`;

  function typedValues(region) {
    const values = new Map();
    for (const field of region.querySelectorAll("input, textarea, select")) {
      if (!field.name || field.type === "hidden" || field.type === "file") continue;
      const changed = isChoice(field) ? field.checked !== field.defaultChecked
        : field.tagName === "SELECT" ? [...field.options].some((option) => option.selected !== option.defaultSelected)
        : field.value !== field.defaultValue;
      if (changed) values.set(fieldKey(field), field);
    }
    return values;
  }

  function swap(region, html) {
    const typed = typedValues(region);
    const focused = region.contains(document.activeElement) ? document.activeElement.name : null;
    region.innerHTML = html;
    for (const [key, old] of typed) {
      const field = region.querySelector(`${key}:not([type=hidden]):not([type=file])`);
      if (!field) continue;
      if (isChoice(old)) field.checked = old.checked; else field.value = old.value;
    }
    if (focused) region.querySelector(`[name="${CSS.escape(focused)}"]`)?.focus();
  }

  function onRegion(event) {
    const newline = event.data.indexOf("\n");
    const head = newline < 0 ? event.data : event.data.slice(0, newline);
    const space = head.indexOf(" ");
    const version = head.slice(0, space), source = head.slice(space + 1);
    const region = regionAt(source);
    if (!region || region.dataset.regionVersion === version) return;
    swap(region, newline < 0 ? "" : event.data.slice(newline + 1));
    region.dataset.regionVersion = version;
    region.removeAttribute("data-region-failed");
  }

  function connect() {
    clearTimeout(timer);
    timer = null;
    if (!streamURL || stream || document.hidden) return;
    stream = new EventSource(currentURL());
    stream.addEventListener("open", () => { failures = 0; });
    stream.addEventListener("region", onRegion);
    // Closed for a newer page of this browser (too many open): wait until this one is shown again.
    stream.addEventListener("closed", disconnect);
    stream.addEventListener("error", () => {
      // The browser would retry on its own at a fixed pace, forever; this one backs off, then stops.
      stream.close();
      stream = null;
      failures += 1;
      if (failures >= maxFailures) return;
      const bound = Math.min(maxDelay, firstDelay * 2 ** (failures - 1));
      timer = setTimeout(connect, bound / 2 + Math.random() * bound / 2);
    });
  }

  function disconnect() {
    clearTimeout(timer);
    timer = null;
    stream?.close();
    stream = null;
  }

  function resume() {
    failures = 0;
    connect();
  }

  // A page in the back/forward cache must hold no connection; shown again, it catches up.
  addEventListener("pagehide", disconnect);
  addEventListener("pageshow", (event) => { if (event.persisted) resume(); });
  addEventListener("online", resume);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) resume(); });
  document.addEventListener("tessera:load", follow);
  follow();
})();
