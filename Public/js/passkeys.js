// Passkeys: the account page's "Add a passkey" and the sign-in page's "Sign in with a passkey".
// The forms stay hidden unless this browser can make passkeys; without JavaScript the password
// form is all there is. Each form asks its data-options URL for a challenge (JSON), hands it
// to the browser, and posts the browser's answer as an ordinary form, base64url-encoded.
(() => {
  if (!window.PublicKeyCredential || !navigator.credentials) return;

  const decode = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64 + "===".slice((base64.length + 3) % 4)), (c) => c.charCodeAt(0)).buffer;
  };
  const encode = (buffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

  // A same-origin fetch: the browser's Sec-Fetch-Site says so, which is all the shop checks.
  async function options(form) {
    const reply = await fetch(form.dataset.options, {
      method: "POST",
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (!reply.ok) throw new Error(`the shop answered ${reply.status}`);
    return reply.json();
  }

  function wire(form, ceremony) {
    // A form the navigation script kept through a morph is wired already.
    if (form.dataset.passkeyWired) return;
    form.dataset.passkeyWired = "true";
    form.hidden = false;
    const status = form.querySelector("[role=status]");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      // The words come from the page, in its language.
      status.textContent = status.dataset.waiting;
      try {
        await ceremony(await options(form));
        form.submit();
      } catch (error) {
        status.textContent = error.name === "NotAllowedError" ? status.dataset.unused : `${status.dataset.failed} ${error.message}`;
        button.disabled = false;
      }
    });
  }

  function wireAll() {
    for (const form of document.querySelectorAll("form[data-passkey-register]")) {
      wire(form, async (publicKey) => {
        publicKey.challenge = decode(publicKey.challenge);
        publicKey.user.id = decode(publicKey.user.id);
        publicKey.excludeCredentials = publicKey.excludeCredentials.map((credential) => ({ ...credential, id: decode(credential.id) }));
        const credential = await navigator.credentials.create({ publicKey });
        form.elements.clientDataJSON.value = encode(credential.response.clientDataJSON);
        form.elements.attestationObject.value = encode(credential.response.attestationObject);
      });
    }

    for (const form of document.querySelectorAll("form[data-passkey-sign-in]")) {
      wire(form, async (publicKey) => {
        publicKey.challenge = decode(publicKey.challenge);
        const credential = await navigator.credentials.get({ publicKey });
        form.elements.credentialID.value = encode(credential.rawId);
        form.elements.clientDataJSON.value = encode(credential.response.clientDataJSON);
        form.elements.authenticatorData.value = encode(credential.response.authenticatorData);
        form.elements.signature.value = encode(credential.response.signature);
        form.elements.userHandle.value = credential.response.userHandle ? encode(credential.response.userHandle) : "";
      });
    }
  }

  // Again on each page the navigation script morphs in.
  document.addEventListener("tessera:load", wireAll);
  wireAll();
})();
