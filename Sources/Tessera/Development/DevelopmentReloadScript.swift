/// The browser's half of ``DevelopmentReload``, served at ``DevelopmentReload/scriptPath``.
///
/// It follows the event stream; when another build answers, or markup was saved after the page
/// was rendered, it saves the scroll position and
/// what was typed into the page's forms (never passwords or files) in `sessionStorage`, reloads,
/// and puts them back. While a build fails it shows the compiler's messages over the page, each
/// `file:line:` first, and takes them away when the next build succeeds.
enum DevelopmentReloadScript {
    static let bytes = Array(source.utf8)

    static let source = #"""
        "use strict";
        (() => {
          const script = document.currentScript;
          const build = script.dataset.tesseraBuild;
          const key = "tessera-dev:" + location.pathname + location.search;
          const kept = (field) => field.name && !["password", "file", "hidden", "submit", "button"].includes(field.type);

          function save() {
            const fields = [];
            document.querySelectorAll("form").forEach((form, index) => {
              for (const field of form.elements) {
                if (!kept(field)) continue;
                fields.push({ form: index, name: field.name, value: field.value, checked: field.checked });
              }
            });
            sessionStorage.setItem(key, JSON.stringify({ x: scrollX, y: scrollY, fields }));
          }

          function restore() {
            const saved = sessionStorage.getItem(key);
            if (!saved) return;
            sessionStorage.removeItem(key);
            const state = JSON.parse(saved);
            const forms = document.querySelectorAll("form");
            for (const entry of state.fields) {
              const form = forms[entry.form];
              if (!form) continue;
              for (const field of form.elements) {
                if (field.name !== entry.name || !kept(field)) continue;
                if (field.type === "checkbox" || field.type === "radio") {
                  if (field.value === entry.value) field.checked = entry.checked;
                } else {
                  field.value = entry.value;
                }
              }
            }
            scrollTo(state.x, state.y);
          }

          function show(messages) {
            let overlay = document.getElementById("tessera-dev-overlay");
            if (!overlay) {
              overlay = document.createElement("div");
              overlay.id = "tessera-dev-overlay";
              overlay.setAttribute("role", "alert");
              Object.assign(overlay.style, {
                position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto", padding: "1.5rem",
                background: "rgba(20, 20, 20, 0.94)", color: "#fff", font: "14px/1.5 ui-monospace, monospace",
              });
              const title = document.createElement("h2");
              title.textContent = "The build failed";
              Object.assign(title.style, { margin: "0 0 1rem", color: "#ff8a80", font: "bold 18px system-ui, sans-serif" });
              const text = document.createElement("pre");
              Object.assign(text.style, { margin: "0", whiteSpace: "pre-wrap" });
              overlay.append(title, text);
              document.body.append(overlay);
            }
            overlay.querySelector("pre").textContent = messages;
          }

          function hide() {
            document.getElementById("tessera-dev-overlay")?.remove();
          }

          restore();
          const events = new EventSource("\#(DevelopmentReload.eventsPath)");
          events.addEventListener("build", (event) => {
            if (event.data === build) return;
            events.close();
            save();
            location.reload();
          });
          events.addEventListener("markup", (event) => {
            if (event.data === script.dataset.tesseraMarkup) return;
            events.close();
            save();
            location.reload();
          });
          events.addEventListener("failed", (event) => show(event.data));
          events.addEventListener("fixed", hide);
        })();
        """#
}
