// Refreshes one region of a page from its own URL (data-region-src), without reloading the page.
// A button or link with data-refresh-region="NAME" refreshes the region called NAME.
// Everything works without this script; it only saves a full page load.
document.addEventListener("click", async (event) => {
  const trigger = event.target.closest("[data-refresh-region]");
  if (!trigger) return;
  const region = document.querySelector(`[data-region="${CSS.escape(trigger.dataset.refreshRegion)}"]`);
  const source = region && region.dataset.regionSrc;
  if (!source) return;
  event.preventDefault();
  region.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(source, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (response.ok) region.innerHTML = await response.text();
  } finally {
    region.removeAttribute("aria-busy");
  }
});
