// The e-mail box of a registered player's own profile: give an address (a link mailed to it
// verifies it), see whether it is verified, turn notification mails off or on, remove it.
import { ApiError, call, fail, get } from "./api.js";
import { h, put, toast } from "./dom.js";

const STATUS = (e) => (!e.verified ? "waiting for you to open the link mailed to it" : e.notifications ? "verified: you get news of your correspondence matches" : "verified: notification mails are off");

/** The box, drawn once the address is read; correspondence news needs a registered account. */
export function emailBox() {
  const box = h("section#p-email.panel", h("p.muted", "Reading your e-mail address…"));

  function draw(email) {
    const address = h("input#email-address", { type: "email", required: true, maxlength: 254, value: email ? email.address : "",
      placeholder: "you@example.org", autocomplete: "email", "aria-label": "e-mail address" });
    const form = h("form#email-form.row.wrap", { onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        draw(await call("PUT", "/api/accounts/me/email", { address: address.value }));
        toast("Check your mail: open the link we sent to verify the address.");
      } catch (err) { fail(err); }
    } }, address, h("button#email-save.btn.btn-primary", { type: "submit" }, email ? "Change" : "Save"));
    const controls = email ? h("div.row.wrap",
      h("p#email-status.muted", `${email.address}: ${STATUS(email)}.`),
      email.verified ? h("button#email-toggle.btn", { type: "button", onclick: async () => {
        try { draw(await call("PUT", "/api/accounts/me/email/notifications", { enabled: !email.notifications })); } catch (err) { fail(err); }
      } }, email.notifications ? "Turn mails off" : "Turn mails on") : null,
      h("button#email-remove.btn", { type: "button", onclick: async () => {
        try { await call("DELETE", "/api/accounts/me/email"); draw(null); } catch (err) { fail(err); }
      } }, "Remove")) : null;
    put(box, h("h2", "E-mail"), h("p.muted", "A mail when a correspondence match waits for your move, 24 hours before your time runs out, and when it ends."), form, controls);
  }

  get("/api/accounts/me/email").then(draw, (err) => {
    if (err instanceof ApiError && err.code === "email/none") draw(null);
    else put(box, h("h2", "E-mail"), h("p.muted", err.message));
  });
  return box;
}
